/* Every execution fails the assume: nothing ever runs to the end of main. */
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>
#include <genmc.h>

atomic_int x;

void *setter(void *arg)
{
	atomic_store(&x, 1);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, setter, NULL);
	__VERIFIER_assume(atomic_load(&x) == 2);
	assert(0);
	return 0;
}

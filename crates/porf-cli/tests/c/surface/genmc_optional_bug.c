// An error inside an optional block is found: GenMC explores the block entered (then
// the thread blocks), and so does porf. By hand: main enters the block after the
// child's store of 1 is visible (or reads it anyway under rc11: the load is
// unordered with it), and the assertion that x is 0 fails.
// expect: assertion "x is 0"
#include <assert.h>
#include <genmc.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x;

static void *setter(void *arg)
{
	atomic_store(&x, 1);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, setter, NULL);
	__VERIFIER_optional(assert(atomic_load(&x) == 0 && "x is 0"));
	pthread_join(t, NULL);
	return 0;
}

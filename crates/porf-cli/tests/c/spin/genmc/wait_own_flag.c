/* After GenMC v0.11 tests/wrong/liveness/simple (run there with -check-liveness):
 * main sets y and waits for x, which the other thread sets only if it saw y. */
#include <stdatomic.h>
#include <pthread.h>

atomic_int x, y;

void *helper(void *arg)
{
	if (y)
		x = 1;
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, helper, NULL);
	y = 1;
	while (!x)
		;
	pthread_join(t, NULL);
	return 0;
}

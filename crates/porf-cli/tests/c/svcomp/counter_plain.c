// counter_atomic.c without the atomic section (the function is not named
// `__VERIFIER_atomic_*`): both threads may read 0 and the assertion fails (a lost
// update); the two plain increments also race.
// expect sc: race
// expect sc | --disable-race-detection: assertion "c == 2"
#include <pthread.h>
#include <assert.h>

int c;

void inc(void)
{
	int t = c;
	c = t + 1;
}

void *worker(void *arg)
{
	inc();
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, worker, 0);
	pthread_create(&b, 0, worker, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(c == 2);
	return 0;
}

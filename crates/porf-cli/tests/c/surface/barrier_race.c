// The reads happen before the barrier: a thread may read the other's slot while it
// is written. A data race.
// expect rc11 sc: race
#include <pthread.h>

pthread_barrier_t bar;
int slot[2];

static void *worker(void *arg)
{
	long i = (long)arg;
	slot[i] = 1;
	int r = slot[1 - i];
	pthread_barrier_wait(&bar);
	return (void *)(long)r;
}

int main(void)
{
	pthread_t a, b;
	pthread_barrier_init(&bar, 0, 2);
	pthread_create(&a, 0, worker, (void *)0);
	pthread_create(&b, 0, worker, (void *)1);
	return 0;
}

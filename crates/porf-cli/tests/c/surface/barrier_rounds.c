// A barrier used for two rounds. In each round the two arrivals come in either
// order, independently of the other round (a thread enters round 2 only after
// leaving round 1): 2 x 2 = 4 complete executions. Round 2's reads see round 1's
// and round 2's writes (ordered by the barrier), so the assertions hold.
// expect rc11 sc: safe 4
#include <assert.h>
#include <pthread.h>

pthread_barrier_t bar;
int a[2], b[2];

static void *worker(void *arg)
{
	long i = (long)arg;
	a[i] = 1;
	pthread_barrier_wait(&bar);
	b[i] = a[1 - i] + 1;
	pthread_barrier_wait(&bar);
	assert(b[1 - i] == 2);
	return 0;
}

int main(void)
{
	pthread_t t0, t1;
	pthread_barrier_init(&bar, 0, 2);
	pthread_create(&t0, 0, worker, (void *)0);
	pthread_create(&t1, 0, worker, (void *)1);
	return 0;
}

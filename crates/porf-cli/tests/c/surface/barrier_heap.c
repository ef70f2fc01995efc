// Barriers in memory that starts out uninitialised (a malloc'ed block, and a local
// whose address reaches other threads) are initialised without a false alarm: init
// reads the old size only of barriers in the global area. As in barrier.c, each
// barrier's two arrivals are two fetch-and-increments in either order; the two
// barriers' arrival orders are independent: 2 x 2 = 4 complete executions.
// expect rc11 sc: safe 4
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct arg {
	pthread_barrier_t *heap, *local;
};

static void *worker(void *p)
{
	struct arg *a = p;
	pthread_barrier_wait(a->heap);
	pthread_barrier_wait(a->local);
	return 0;
}

int main(void)
{
	pthread_t x;
	pthread_barrier_t local;
	struct arg a;
	a.heap = malloc(sizeof(pthread_barrier_t));
	a.local = &local;
	pthread_barrier_init(a.heap, 0, 2);
	pthread_barrier_init(&local, 0, 2);
	pthread_create(&x, 0, worker, &a);
	pthread_barrier_wait(a.heap);
	pthread_barrier_wait(&local);
	pthread_join(x, 0);
	pthread_barrier_destroy(&local);
	free(a.heap);
	return 0;
}

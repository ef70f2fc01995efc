// Two threads each write their slot, meet at a barrier and read the other's slot.
// The barrier orders every write before every read (no race, the values are 1).
// Executions: the two arrivals at the barrier are two fetch-and-increments on the
// barrier, in either order: 2 complete executions (GenMC with -disable-bam counts
// the same; GenMC's BAM merges the arrival orders into one).
// expect rc11 sc: safe 2
#include <assert.h>
#include <pthread.h>

pthread_barrier_t bar;
int slot[2];

static void *worker(void *arg)
{
	long i = (long)arg;
	slot[i] = 1;
	pthread_barrier_wait(&bar);
	assert(slot[1 - i] == 1);
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_barrier_init(&bar, 0, 2);
	pthread_create(&a, 0, worker, (void *)0);
	pthread_create(&b, 0, worker, (void *)1);
	pthread_join(a, 0);
	pthread_join(b, 0);
	pthread_barrier_destroy(&bar);
	return 0;
}

// init, destroy, init again is fine (POSIX: a destroyed barrier may be initialised
// again), and so is initialising a barrier that an init rejected (count 0: EINVAL,
// the barrier stays uninitialised). The barrier of size 1 lets its only arrival go
// on at once (PTHREAD_BARRIER_SERIAL_THREAD). One thread, no choice: 1 execution.
// expect rc11 sc: safe 1
#include <assert.h>
#include <pthread.h>

pthread_barrier_t bar;

int main(void)
{
	assert(pthread_barrier_init(&bar, 0, 0) == 22);
	assert(pthread_barrier_init(&bar, 0, 3) == 0);
	pthread_barrier_destroy(&bar);
	assert(pthread_barrier_init(&bar, 0, 1) == 0);
	assert(pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD);
	pthread_barrier_destroy(&bar);
	return 0;
}

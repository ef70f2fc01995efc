// Waiting on a barrier that was never initialised (POSIX: undefined behaviour;
// GenMC: a read of uninitialised memory) is a memory error.
// expect rc11 sc: memory "not initialised"
#include <pthread.h>

pthread_barrier_t bar;

int main(void)
{
	pthread_barrier_wait(&bar);
	return 0;
}

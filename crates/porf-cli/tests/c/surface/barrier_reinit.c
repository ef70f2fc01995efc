// Initialising a barrier that is initialised and not destroyed (POSIX: undefined
// behaviour; GenMC: "Invalid barrier_init() operation") is a memory error. One
// thread, one execution: the second init reads the first one's size.
// expect rc11 sc: memory "already initialised"
#include <pthread.h>

pthread_barrier_t bar;

int main(void)
{
	pthread_barrier_init(&bar, 0, 2);
	pthread_barrier_init(&bar, 0, 2);
	return 0;
}

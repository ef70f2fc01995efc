// A default (normal) mutex is not recursive: the thread's second lock waits for the
// thread itself. Setting a protocol does not change the type, so the re-lock is a
// deadlock (POSIX: PTHREAD_MUTEX_NORMAL deadlocks on a re-lock).
// expect: deadlock
#include <pthread.h>

pthread_mutex_t m;

int main(void)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(&m, &a);
	pthread_mutex_lock(&m);
	pthread_mutex_lock(&m);
	return 0;
}

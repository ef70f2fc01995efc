// A thread holding a read lock asks for the write lock: it waits for itself.
// expect rc11 sc: deadlock
#include <pthread.h>

pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;

int main(void)
{
	pthread_rwlock_rdlock(&l);
	pthread_rwlock_wrlock(&l);
	return 0;
}

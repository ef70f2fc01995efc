// Unlocking a read-write lock the thread does not hold is an error.
// expect rc11 sc: memory "does not hold the read-write lock"
#include <pthread.h>

pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;

int main(void)
{
	pthread_rwlock_unlock(&l);
	return 0;
}

// The try operations in one thread (POSIX): a write-held lock refuses both; a
// read-held lock admits readers (read locks are recursive) and refuses a writer.
// One thread, no choices: 1 complete execution.
// expect rc11 sc: safe 1
#include <assert.h>
#include <errno.h>
#include <pthread.h>

pthread_rwlock_t l;

int main(void)
{
	pthread_rwlock_init(&l, 0);
	assert(pthread_rwlock_wrlock(&l) == 0);
	assert(pthread_rwlock_tryrdlock(&l) == EBUSY);
	assert(pthread_rwlock_trywrlock(&l) == EBUSY);
	assert(pthread_rwlock_unlock(&l) == 0);
	assert(pthread_rwlock_tryrdlock(&l) == 0);
	assert(pthread_rwlock_rdlock(&l) == 0);
	assert(pthread_rwlock_trywrlock(&l) == EBUSY);
	assert(pthread_rwlock_unlock(&l) == 0);
	assert(pthread_rwlock_unlock(&l) == 0);
	assert(pthread_rwlock_trywrlock(&l) == 0);
	assert(pthread_rwlock_unlock(&l) == 0);
	pthread_rwlock_destroy(&l);
	return 0;
}

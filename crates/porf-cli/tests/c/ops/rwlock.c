/* A writer and a reader that only tries: the reader's tryrdlock may fail while the
 * writer holds the lock, and the program wrongly assumes it never does. */
#include <assert.h>
#include <pthread.h>

pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
int x;

void *writer(void *arg)
{
	pthread_rwlock_wrlock(&l);
	x = 1;
	pthread_rwlock_unlock(&l);
	return 0;
}

void *reader(void *arg)
{
	int r = pthread_rwlock_tryrdlock(&l);
	assert(r == 0);
	pthread_rwlock_unlock(&l);
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, writer, 0);
	pthread_create(&b, 0, reader, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	pthread_rwlock_rdlock(&l);
	pthread_rwlock_unlock(&l);
	return 0;
}

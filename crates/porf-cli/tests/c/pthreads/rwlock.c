// A reader and a writer. Acquiring is one acquire compare-exchange on the lock's state
// from the expected value 0, releasing one release fetch-add; all of these form one
// chain in modification order. Reader first: its sections reads x = 0 (the writer's
// store comes after the reader's release in happens-before); writer first: the
// reader's acquire sees the writer's release, so it reads x = 1. An attempt that reads
// the other thread's taken state waits and is a blocked execution. 2 complete.
// expect rc11 sc: safe 2
#include <assert.h>
#include <pthread.h>

pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
int x;

static void *reader(void *arg)
{
	assert(pthread_rwlock_rdlock(&l) == 0);
	int r = x;
	assert(pthread_rwlock_unlock(&l) == 0);
	return (void *)(long)r;
}

static void *writer(void *arg)
{
	assert(pthread_rwlock_wrlock(&l) == 0);
	x = 1;
	assert(pthread_rwlock_unlock(&l) == 0);
	return 0;
}

int main(void)
{
	pthread_t r, w;
	pthread_create(&r, 0, reader, 0);
	pthread_create(&w, 0, writer, 0);
	pthread_join(r, 0);
	pthread_join(w, 0);
	return 0;
}

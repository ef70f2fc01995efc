// A reader that never unlocks: when it goes first, the writer waits for good (and
// main waits to join it): a deadlock.
// expect rc11 sc: deadlock
#include <pthread.h>

pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;

static void *reader(void *arg)
{
	pthread_rwlock_rdlock(&l);
	return 0;
}

static void *writer(void *arg)
{
	pthread_rwlock_wrlock(&l);
	pthread_rwlock_unlock(&l);
	return 0;
}

int main(void)
{
	pthread_t r, w;
	pthread_create(&r, 0, reader, 0);
	pthread_create(&w, 0, writer, 0);
	pthread_join(w, 0);
	return 0;
}

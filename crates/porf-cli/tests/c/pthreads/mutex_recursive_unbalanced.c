// A recursive mutex locked twice and unlocked once stays held by its thread: when that
// thread goes first, the other thread waits for it forever, and main waits to join it.
// expect rc11 sc: deadlock
#include <pthread.h>

pthread_mutex_t m = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

static void *bad(void *arg)
{
	pthread_mutex_lock(&m);
	pthread_mutex_lock(&m);
	pthread_mutex_unlock(&m);
	return 0;
}

static void *other(void *arg)
{
	pthread_mutex_lock(&m);
	pthread_mutex_unlock(&m);
	return 0;
}

int main(void)
{
	pthread_t t1, t2;
	pthread_create(&t1, 0, bad, 0);
	pthread_create(&t2, 0, other, 0);
	pthread_join(t2, 0);
	return 0;
}

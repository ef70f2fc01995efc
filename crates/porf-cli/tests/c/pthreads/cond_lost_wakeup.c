// A lost wake-up: main waits without checking a condition. When the child signals
// before main's wait begins, nothing wakes main again: it waits for good while the
// child has finished, a deadlock (porf models no spurious wake-ups).
// expect rc11 sc: deadlock
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;

static void *child(void *arg)
{
	pthread_mutex_lock(&m);
	pthread_cond_signal(&c);
	pthread_mutex_unlock(&m);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, child, 0);
	pthread_mutex_lock(&m);
	pthread_cond_wait(&c, &m);
	pthread_mutex_unlock(&m);
	pthread_join(t, 0);
	return 0;
}

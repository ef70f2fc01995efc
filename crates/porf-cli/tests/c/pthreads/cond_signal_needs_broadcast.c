// A signal where a broadcast was needed: two threads wait for `go`, main sets it and
// signals once. When both waits began before main's critical section, the signal
// wakes one of them; the other waits for good after every other thread finished or
// waits for it: a deadlock (a real implementation may wake only one waiter).
// expect rc11 sc: deadlock
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int go;

static void *waiter(void *arg)
{
	pthread_mutex_lock(&m);
	while (!go)
		pthread_cond_wait(&c, &m);
	pthread_mutex_unlock(&m);
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, waiter, 0);
	pthread_create(&b, 0, waiter, 0);
	pthread_mutex_lock(&m);
	go = 1;
	pthread_cond_signal(&c);
	pthread_mutex_unlock(&m);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}

// The canonical condition-variable hand-off: main waits in a loop for `ready`, the
// child sets it and signals under the mutex. Executions (by hand): the mutex orders
// main's first critical section and the child's. Child first: main reads ready = 1
// and never waits (1 execution). Main first: it reads ready = 0 and waits; its wait
// begins before the child's signal (the mutex orders them), so it returns only after
// reading the signal's write, re-locks after the child's unlock and reads ready = 1
// (1 execution; the wait's read of the older value is a blocked execution). 2.
// expect rc11 sc: safe 2
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;

static void *child(void *arg)
{
	pthread_mutex_lock(&m);
	ready = 1;
	pthread_cond_signal(&c);
	pthread_mutex_unlock(&m);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, child, 0);
	pthread_mutex_lock(&m);
	while (!ready)
		assert(pthread_cond_wait(&c, &m) == 0);
	assert(ready == 1);
	pthread_mutex_unlock(&m);
	pthread_join(t, 0);
	return 0;
}

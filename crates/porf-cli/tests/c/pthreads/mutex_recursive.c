// A recursive mutex: each thread locks it twice (the re-lock by the owner only counts)
// and unlocks it twice; the mutex is free again only after the second unlock.
// Executions: the two threads' critical sections (each from its first lock to its
// last unlock) come in 2 orders; the inner lock/unlock and the trylock add no events
// that could read anything else, so 2 complete executions, and x ends at 2.
// expect rc11 sc: safe 2
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m;
int x;

static void *worker(void *arg)
{
	assert(pthread_mutex_lock(&m) == 0);
	assert(pthread_mutex_lock(&m) == 0);
	assert(pthread_mutex_trylock(&m) == 0);
	x++;
	assert(pthread_mutex_unlock(&m) == 0);
	assert(pthread_mutex_unlock(&m) == 0);
	assert(pthread_mutex_unlock(&m) == 0);
	return 0;
}

int main(void)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	assert(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE) == 0);
	pthread_mutex_init(&m, &a);
	pthread_mutexattr_destroy(&a);
	pthread_t t1, t2;
	pthread_create(&t1, 0, worker, 0);
	pthread_create(&t2, 0, worker, 0);
	pthread_join(t1, 0);
	pthread_join(t2, 0);
	assert(x == 2);
	return 0;
}

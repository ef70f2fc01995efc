// An error-checking mutex (POSIX): a re-lock by the owner returns EDEADLK (35 on
// Linux), an unlock by a thread that does not hold it returns EPERM (1), a trylock
// of a held mutex EBUSY (16). Every access of the child is ordered by create/join,
// so there is 1 complete execution.
// expect rc11 sc: safe 1
#include <assert.h>
#include <errno.h>
#include <pthread.h>

pthread_mutex_t m;

static void *stranger(void *arg)
{
	assert(pthread_mutex_unlock(&m) == EPERM);
	return 0;
}

int main(void)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	int k = -1;
	pthread_mutexattr_gettype(&a, &k);
	assert(k == PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&m, &a);
	assert(pthread_mutex_unlock(&m) == EPERM);
	assert(pthread_mutex_lock(&m) == 0);
	assert(pthread_mutex_lock(&m) == EDEADLK);
	assert(pthread_mutex_trylock(&m) == EBUSY);
	pthread_t t;
	pthread_create(&t, 0, stranger, 0);
	pthread_join(t, 0);
	assert(pthread_mutex_unlock(&m) == 0);
	assert(pthread_mutex_unlock(&m) == EPERM);
	return 0;
}

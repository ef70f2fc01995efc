// Mutex attributes: the type is honoured (a recursive mutex may be re-locked by its
// holder, an error-checking one returns EDEADLK on a re-lock and EPERM on an unlock by
// a thread that does not hold it); protocol, priority ceiling and process-shared are
// stored and read back (porf has no priorities and one process, so they change no
// execution). Two threads each take the recursive mutex twice around an increment:
// the mutex orders the two critical sections, 2 complete executions (one per order of
// the two outermost lock acquisitions); the final count is 2 in both.
// expect: safe 2
#include <assert.h>
#include <errno.h>
#include <pthread.h>

pthread_mutex_t m, e;
int count;

void *worker(void *arg)
{
	assert(pthread_mutex_lock(&m) == 0);
	assert(pthread_mutex_lock(&m) == 0);
	count++;
	assert(pthread_mutex_unlock(&m) == 0);
	assert(pthread_mutex_unlock(&m) == 0);
	return 0;
}

int main(void)
{
	pthread_mutexattr_t a;
	int v;
	assert(pthread_mutexattr_init(&a) == 0);
	assert(pthread_mutexattr_gettype(&a, &v) == 0 && v == PTHREAD_MUTEX_DEFAULT);
	assert(pthread_mutexattr_getprotocol(&a, &v) == 0 && v == PTHREAD_PRIO_NONE);
	assert(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE) == 0);
	assert(pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT) == 0);
	assert(pthread_mutexattr_setprioceiling(&a, 7) == 0);
	assert(pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED) == 0);
	assert(pthread_mutexattr_setprotocol(&a, 99) == EINVAL);
	assert(pthread_mutexattr_setpshared(&a, 99) == EINVAL);
	assert(pthread_mutexattr_gettype(&a, &v) == 0 && v == PTHREAD_MUTEX_RECURSIVE);
	assert(pthread_mutexattr_getprotocol(&a, &v) == 0 && v == PTHREAD_PRIO_INHERIT);
	assert(pthread_mutexattr_getprioceiling(&a, &v) == 0 && v == 7);
	assert(pthread_mutexattr_getpshared(&a, &v) == 0 && v == PTHREAD_PROCESS_SHARED);
	assert(pthread_mutex_init(&m, &a) == 0);
	assert(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK) == 0);
	assert(pthread_mutex_init(&e, &a) == 0);
	assert(pthread_mutexattr_destroy(&a) == 0);

	assert(pthread_mutex_lock(&e) == 0);
	assert(pthread_mutex_lock(&e) == EDEADLK);
	assert(pthread_mutex_unlock(&e) == 0);
	assert(pthread_mutex_unlock(&e) == EPERM);

	pthread_t t;
	pthread_create(&t, 0, worker, 0);
	worker(0);
	pthread_join(t, 0);
	assert(count == 2);
	return 0;
}

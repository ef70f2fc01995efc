// Detached threads (pthread_detach, and a PTHREAD_CREATE_DETACHED attribute) are never
// joined; porf runs them to their end like any thread, also after main returns. Each
// sets its own flag (an atomic store) and main reads nothing: 1 execution. The
// attribute getters read back what the setters stored.
// expect rc11 sc: safe 1
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int a_done, b_done;

static void *a(void *arg)
{
	atomic_store(&a_done, 1);
	return NULL;
}

static void *b(void *arg)
{
	pthread_detach(pthread_self());
	atomic_store(&b_done, 1);
	return NULL;
}

int main(void)
{
	pthread_attr_t attr;
	assert(pthread_attr_init(&attr) == 0);
	int state = -1;
	pthread_attr_getdetachstate(&attr, &state);
	assert(state == PTHREAD_CREATE_JOINABLE);
	assert(pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0);
	assert(pthread_attr_setdetachstate(&attr, 7) == 22); /* EINVAL */
	pthread_attr_getdetachstate(&attr, &state);
	assert(state == PTHREAD_CREATE_DETACHED);
	assert(pthread_attr_setstacksize(&attr, 1 << 20) == 0);
	size_t size = 0;
	pthread_attr_getstacksize(&attr, &size);
	assert(size == 1 << 20);
	pthread_t t1, t2;
	pthread_create(&t1, &attr, a, NULL);
	pthread_attr_destroy(&attr);
	pthread_create(&t2, NULL, b, NULL);
	return 0;
}

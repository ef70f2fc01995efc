// Thread-specific data: each thread sees only its own value, NULL before it sets one.
// The key is created before the threads start; nothing is shared otherwise:
// 1 complete execution.
// expect rc11 sc: safe 1
#include <assert.h>
#include <pthread.h>

pthread_key_t key, key2;
int a, b;

static void *worker(void *arg)
{
	assert(pthread_getspecific(key) == 0);
	assert(pthread_setspecific(key, arg) == 0);
	assert(pthread_getspecific(key) == arg);
	assert(pthread_getspecific(key2) == 0);
	return 0;
}

int main(void)
{
	assert(pthread_key_create(&key, 0) == 0);
	assert(pthread_key_create(&key2, 0) == 0);
	assert(key != key2);
	pthread_setspecific(key2, &b);
	pthread_t t1, t2;
	pthread_create(&t1, 0, worker, &a);
	pthread_create(&t2, 0, worker, &b);
	pthread_join(t1, 0);
	pthread_join(t2, 0);
	assert(pthread_getspecific(key) == 0);
	assert(pthread_getspecific(key2) == &b);
	pthread_key_delete(key);
	return 0;
}

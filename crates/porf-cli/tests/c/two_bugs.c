/* Two independent bugs: a racy counter and an assertion that fails in some runs. */
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>

int racy;
atomic_int x;

void *a(void *arg)
{
	racy = 1;
	atomic_store_explicit(&x, 1, memory_order_relaxed);
	return NULL;
}

void *b(void *arg)
{
	racy = 2;
	assert(atomic_load_explicit(&x, memory_order_relaxed) == 0);
	return NULL;
}

int main(void)
{
	pthread_t t, u;
	pthread_create(&t, NULL, a, NULL);
	pthread_create(&u, NULL, b, NULL);
	return 0;
}

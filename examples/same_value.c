/* Three threads write the same value to x and y; two of them then read one of the
 * locations. Every read can only see 1 (or 0 before any write): many interleavings,
 * several reads-from classes, and few reads-value-from classes. */
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>

atomic_int x, y;
int seen_x, seen_y;

void *t1(void *arg)
{
	atomic_store_explicit(&x, 1, memory_order_relaxed);
	atomic_store_explicit(&y, 1, memory_order_relaxed);
	return NULL;
}

void *t2(void *arg)
{
	atomic_store_explicit(&x, 1, memory_order_relaxed);
	atomic_store_explicit(&y, 1, memory_order_relaxed);
	seen_x = atomic_load_explicit(&x, memory_order_relaxed);
	return NULL;
}

void *t3(void *arg)
{
	atomic_store_explicit(&x, 1, memory_order_relaxed);
	atomic_store_explicit(&y, 1, memory_order_relaxed);
	seen_y = atomic_load_explicit(&y, memory_order_relaxed);
	return NULL;
}

int main(void)
{
	pthread_t a, b, c;
	pthread_create(&a, NULL, t1, NULL);
	pthread_create(&b, NULL, t2, NULL);
	pthread_create(&c, NULL, t3, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	pthread_join(c, NULL);
	assert(seen_x == 1 && seen_y == 1);
	return 0;
}

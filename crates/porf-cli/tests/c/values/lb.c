/* Load buffering: each thread reads one variable and then writes the other. The
 * outcome a == 1 && b == 1 needs each read to read the write program-order after the
 * other read: forbidden by every C11 model (po ∪ rf acyclic), allowed by a model that
 * orders nothing but accesses of one location (coherence.cat). */
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>

atomic_int x, y;
int a, b;

void *t1(void *arg)
{
	a = atomic_load_explicit(&x, memory_order_relaxed);
	atomic_store_explicit(&y, 1, memory_order_relaxed);
	return NULL;
}

void *t2(void *arg)
{
	b = atomic_load_explicit(&y, memory_order_relaxed);
	atomic_store_explicit(&x, 1, memory_order_relaxed);
	return NULL;
}

int main(void)
{
	pthread_t p, q;
	pthread_create(&p, NULL, t1, NULL);
	pthread_create(&q, NULL, t2, NULL);
	pthread_join(p, NULL);
	pthread_join(q, NULL);
	assert(!(a == 1 && b == 1));
	return 0;
}

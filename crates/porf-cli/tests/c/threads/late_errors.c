// Five writers and a reader that reads x three times: most executions pass, two
// assertions fail in a few executions found late in the search (with --keep-going:
// both, in the order the sequential search meets them).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x;

void *writer(void *a)
{
	atomic_store_explicit(&x, (int)(long)a, memory_order_relaxed);
	return 0;
}

void *reader(void *a)
{
	int r1 = atomic_load_explicit(&x, memory_order_relaxed);
	int r2 = atomic_load_explicit(&x, memory_order_relaxed);
	int r3 = atomic_load_explicit(&x, memory_order_relaxed);
	assert(!(r1 == 3 && r2 == 2 && r3 == 1));
	assert(!(r1 == 1 && r2 == 4 && r3 == 2));
	return 0;
}

int main()
{
	pthread_t w[5], r;
	pthread_create(&r, 0, reader, 0);
	for (long i = 0; i < 5; i++)
		pthread_create(&w[i], 0, writer, (void *)(i + 1));
	for (int i = 0; i < 5; i++)
		pthread_join(w[i], 0);
	pthread_join(r, 0);
	return 0;
}

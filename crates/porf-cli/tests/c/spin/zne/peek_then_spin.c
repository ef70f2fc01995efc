// A flag read once before the loop and again in it, the loop behind an `if` (Dat3M's
// CLH lock waits so):
//   r = flag; if (!r) { while (!r) r = flag; }
// against a writer of flag = 1 (after data = 7). With -DBUG the writer sets the flag
// before the data, and the reader asserts data == 7.
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>

atomic_int flag, data;

void *writer(void *arg)
{
#ifdef BUG
	atomic_store_explicit(&flag, 1, memory_order_release);
	atomic_store_explicit(&data, 7, memory_order_relaxed);
#else
	atomic_store_explicit(&data, 7, memory_order_relaxed);
	atomic_store_explicit(&flag, 1, memory_order_release);
#endif
	return 0;
}

void *reader(void *arg)
{
	int r = atomic_load_explicit(&flag, memory_order_acquire);
	if (!r) {
		while (!r)
			r = atomic_load_explicit(&flag, memory_order_acquire);
	}
	assert(atomic_load_explicit(&data, memory_order_relaxed) == 7);
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, writer, 0);
	pthread_create(&b, 0, reader, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}

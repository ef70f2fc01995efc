// Threads spawned on values read: which children exist, and so which thread ids are
// handed out, depends on the branch of the search; an assertion fails in some
// executions only; three more threads make the search large enough to be shared. `--threads N` must print the same result for every N.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y, z;

void *leaf(void *a)
{
	atomic_store_explicit(&z, (int)(long)a, memory_order_relaxed);
	return 0;
}

void *t1(void *a)
{
	pthread_t c;
	if (atomic_load_explicit(&x, memory_order_relaxed) == 1) {
		pthread_create(&c, 0, leaf, (void *)1);
		pthread_join(c, 0);
	}
	atomic_store_explicit(&y, 1, memory_order_relaxed);
	return 0;
}

void *t2(void *a)
{
	pthread_t c;
	atomic_store_explicit(&x, 1, memory_order_relaxed);
	if (atomic_load_explicit(&y, memory_order_relaxed) == 1) {
		pthread_create(&c, 0, leaf, (void *)2);
		pthread_join(c, 0);
	}
	return 0;
}

void *noise(void *a)
{
	atomic_store_explicit(&z, 3, memory_order_relaxed);
	atomic_store_explicit(&x, 2, memory_order_relaxed);
	return 0;
}

int main()
{
	pthread_t a, b, n[3];
	pthread_create(&a, 0, t1, 0);
	pthread_create(&b, 0, t2, 0);
	for (int i = 0; i < 3; i++)
		pthread_create(&n[i], 0, noise, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	for (int i = 0; i < 3; i++)
		pthread_join(n[i], 0);
	assert(atomic_load_explicit(&z, memory_order_relaxed) != 2);
	return 0;
}

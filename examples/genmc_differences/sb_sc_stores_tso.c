// Store buffering with seq_cst stores and relaxed loads. Compiled for x86, a seq_cst
// store is a full fence (xchg, or mov + mfence), so under porf's tso the loads cannot
// both read 0. GenMC 0.11's tso orders a seq_cst store only before later seq_cst
// reads, so there the assertion fails.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;
int r1, r2;

void *t1(void *arg)
{
	atomic_store_explicit(&x, 1, memory_order_seq_cst);
	r1 = atomic_load_explicit(&y, memory_order_relaxed);
	return 0;
}

void *t2(void *arg)
{
	atomic_store_explicit(&y, 1, memory_order_seq_cst);
	r2 = atomic_load_explicit(&x, memory_order_relaxed);
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, t1, 0);
	pthread_create(&b, 0, t2, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(r1 == 1 || r2 == 1);
	return 0;
}

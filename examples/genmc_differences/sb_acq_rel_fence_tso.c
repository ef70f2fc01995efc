// Store buffering with an acq_rel fence between each store and load. Compiled for
// x86, such a fence emits no instruction, so under porf's tso both loads may read 0
// and the assertion fails. GenMC 0.11's tso makes every fence, of any order, a full
// fence, so there the program is safe.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;
int r1, r2;

void *t1(void *arg)
{
	atomic_store_explicit(&x, 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_acq_rel);
	r1 = atomic_load_explicit(&y, memory_order_relaxed);
	return 0;
}

void *t2(void *arg)
{
	atomic_store_explicit(&y, 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_acq_rel);
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

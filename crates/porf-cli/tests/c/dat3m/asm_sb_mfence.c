// Store buffering with an x86 `mfence` between each thread's store and load.
// `mfence` is read as a seq_cst fence (the fence whose x86 compilation is mfence).
// rc11: two seq_cst fences forbid r1 = r2 = 0 (the psc order of the fences);
// sc and tso: a full fence. The loads read 1 or 0 otherwise: (0,1), (1,0), (1,1),
// one write per location, so 3 executions.
// expect rc11 tso sc: safe 3
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int x, y;
int r1, r2;

static void *t1(void *arg)
{
	atomic_store_explicit(&x, 1, memory_order_relaxed);
	asm volatile("mfence" ::: "memory");
	r1 = atomic_load_explicit(&y, memory_order_relaxed);
	return 0;
}

static void *t2(void *arg)
{
	atomic_store_explicit(&y, 1, memory_order_relaxed);
	__asm__ __volatile__("mfence" ::: "memory");
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
	assert(!(r1 == 0 && r2 == 0));
	return 0;
}

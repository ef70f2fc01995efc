// Store buffering with x86 `lfence`s: lfence is read as an acquire fence (x86-TSO
// treats lfence as a no-op on ordinary memory, and acquire fences compile to nothing
// on x86). It does not order a store before a later load, so r1 = r2 = 0 is allowed
// under rc11 and tso, and the assertion fails; under sc it cannot.
// expect rc11 tso: assertion
// expect sc: safe 3
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int x, y;
int r1, r2;

static void *t1(void *arg)
{
	atomic_store_explicit(&x, 1, memory_order_relaxed);
	asm volatile("lfence" ::: "memory");
	r1 = atomic_load_explicit(&y, memory_order_relaxed);
	return 0;
}

static void *t2(void *arg)
{
	atomic_store_explicit(&y, 1, memory_order_relaxed);
	asm volatile("lfence" ::: "memory");
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

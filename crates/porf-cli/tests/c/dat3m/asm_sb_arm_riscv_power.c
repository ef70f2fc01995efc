// Store buffering with the full barriers of ARMv8 (`dmb ish`), RISC-V
// (`fence rw,rw`) and Power (`sync`): the instructions seq_cst fences compile to, read
// as seq_cst fences. Thread 1 uses two of them (two fences in a row order as one).
// As with mfence: 3 executions, never r1 = r2 = 0.
// expect rc11 tso sc: safe 3
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int x, y;
int r1, r2;

static void *t1(void *arg)
{
	atomic_store_explicit(&x, 1, memory_order_relaxed);
	asm volatile("dmb ish" ::: "memory");
	asm volatile("fence rw,rw" ::: "memory");
	r1 = atomic_load_explicit(&y, memory_order_relaxed);
	return 0;
}

static void *t2(void *arg)
{
	atomic_store_explicit(&y, 1, memory_order_relaxed);
	asm volatile("sync" ::: "memory");
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

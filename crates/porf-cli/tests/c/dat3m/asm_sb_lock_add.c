// Store buffering with x86's locked add of 0 to the stack (`lock; addl $0,(%rsp)`,
// Linux's smp_mb on x86-64) in both spellings: a full barrier, read as a seq_cst
// fence. As with mfence: (0,1), (1,0), (1,1), 3 executions, never r1 = r2 = 0.
// expect rc11 tso sc: safe 3
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int x, y;
int r1, r2;

static void *t1(void *arg)
{
	atomic_store_explicit(&x, 1, memory_order_relaxed);
	asm volatile("lock; addl $0,(%%rsp)" ::: "memory");
	r1 = atomic_load_explicit(&y, memory_order_relaxed);
	return 0;
}

static void *t2(void *arg)
{
	atomic_store_explicit(&y, 1, memory_order_relaxed);
	asm volatile("lock addl $0,0(%%rsp)" ::: "memory");
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

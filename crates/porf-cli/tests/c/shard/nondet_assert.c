/* Sharding test: nondeterministic choices (`__VERIFIER_nondet_int`, run with
 * --nondet-range 0..3) above and below reads with several sources, an assume that
 * blocks some executions, and an assertion that fails only in some subtrees (so the
 * first error found depends on the depth-first order). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

atomic_int x, y;

void *t1(void *arg)
{
	int v = __VERIFIER_nondet_int();
	atomic_store_explicit(&x, v, memory_order_relaxed);
	atomic_store_explicit(&y, 1, memory_order_relaxed);
	return NULL;
}

void *t2(void *arg)
{
	int a = atomic_load_explicit(&y, memory_order_relaxed);
	int b = atomic_load_explicit(&x, memory_order_relaxed);
	int c = __VERIFIER_nondet_int();
	__VERIFIER_assume(c != 1);
	assert(!(a == 1 && b == 3 && c == 2));
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, t1, NULL);
	pthread_create(&b, NULL, t2, NULL);
	atomic_store_explicit(&x, 2, memory_order_relaxed);
	return 0;
}

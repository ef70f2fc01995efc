// A compare-exchange whose failure order is release (C11 7.17.7.4p2 forbids it) is
// accepted with a warning and, as clang compiles it, the failure order becomes
// relaxed. The CAS reads 0 (succeeds, before the store in coherence) or 1 (fails):
// 2 executions.
// expect rc11 sc: safe 2
// expect-stderr: not a valid failure order
#include <pthread.h>
#include <stdatomic.h>

atomic_int x;

static void *store(void *arg)
{
	atomic_store_explicit(&x, 1, memory_order_relaxed);
	return 0;
}

int main(void)
{
	pthread_t t;
	int r = 0;
	pthread_create(&t, 0, store, 0);
	atomic_compare_exchange_strong_explicit(&x, &r, 2, memory_order_acq_rel,
						memory_order_release);
	return 0;
}

// ARM's `dmb ishst` orders stores only; C11 has no store-store fence and a release
// fence would also order loads before stores, hiding behaviours the hardware allows:
// refused, at the asm, when an execution reaches it.
// expect rc11 tso: rejected "store-store"
// expect-stderr: asm_store_store_refused.c:14:2
#include <pthread.h>
#include <stdatomic.h>

atomic_int data, flag;

static void *writer(void *arg)
{
	atomic_store_explicit(&data, 1, memory_order_relaxed);
	asm volatile("dmb ishst" ::: "memory");
	atomic_store_explicit(&flag, 1, memory_order_relaxed);
	return 0;
}

int main(void)
{
	pthread_t a;
	pthread_create(&a, 0, writer, 0);
	return 0;
}

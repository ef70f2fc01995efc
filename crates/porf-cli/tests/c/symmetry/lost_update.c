/* Two symmetric threads increment a counter with a relaxed load and store; each
 * asserts it did not read the other's increment. Both orders of the failing read are
 * twins: the reduction explores one, and the assertion fails either way. */
#include <stdatomic.h>
#include <assert.h>
#include <genmc.h>

atomic_int x;

void *worker(void *arg)
{
	int r = atomic_load_explicit(&x, memory_order_relaxed);
	atomic_store_explicit(&x, r + 1, memory_order_relaxed);
	assert(r == 0);
	return NULL;
}

int main()
{
	__VERIFIER_thread_t t = __VERIFIER_spawn(worker, NULL);
	__VERIFIER_spawn_symmetric(worker, NULL, t);
	return 0;
}

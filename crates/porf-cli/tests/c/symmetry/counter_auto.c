/* Three copies of one identity-oblivious thread function spawned by __VERIFIER_spawn
 * with one argument and nothing between the spawns: symmetry reduction finds them
 * interchangeable without a declaration. */
#include <stdatomic.h>
#include <genmc.h>

atomic_int x;

void *worker(void *arg)
{
	int r = atomic_load_explicit(&x, memory_order_relaxed);
	atomic_store_explicit(&x, r + 1, memory_order_relaxed);
	return NULL;
}

int main()
{
	__VERIFIER_spawn(worker, NULL);
	__VERIFIER_spawn(worker, NULL);
	__VERIFIER_spawn(worker, NULL);
	return 0;
}

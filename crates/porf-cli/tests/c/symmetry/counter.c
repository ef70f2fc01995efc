/* Three copies of one thread function, each declared symmetric to the previous one
 * (__VERIFIER_spawn_symmetric): each reads the counter and writes it plus one. */
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
	__VERIFIER_thread_t t1 = __VERIFIER_spawn(worker, NULL);
	__VERIFIER_thread_t t2 = __VERIFIER_spawn_symmetric(worker, NULL, t1);
	__VERIFIER_spawn_symmetric(worker, NULL, t2);
	return 0;
}

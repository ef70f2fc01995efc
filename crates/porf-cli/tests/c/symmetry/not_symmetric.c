/* A declaration porf cannot take: the thread declared symmetric runs another function
 * (`reader`, not `worker`), so the two are explored as any other pair of threads. */
#include <stdatomic.h>
#include <genmc.h>

atomic_int x;

void *worker(void *arg)
{
	int r = atomic_load_explicit(&x, memory_order_relaxed);
	atomic_store_explicit(&x, r + 1, memory_order_relaxed);
	return NULL;
}

void *reader(void *arg)
{
	int r = atomic_load_explicit(&x, memory_order_relaxed);
	atomic_store_explicit(&x, r + 2, memory_order_relaxed);
	return NULL;
}

int main()
{
	__VERIFIER_thread_t t = __VERIFIER_spawn(worker, NULL);
	__VERIFIER_spawn_symmetric(reader, NULL, t);
	return 0;
}

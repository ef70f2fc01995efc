/* Z6.U (Lahav et al., "Repairing sequential consistency in C/C++11", PLDI 2017):
 * a seq_cst store, a release store, a seq_cst fetch-add and a seq_cst store.
 * RC11 orders seq_cst events through happens-before only along po|≠loc; hb;
 * po|≠loc. GenMC 0.11 uses po; hb; po and splits the fetch-add into a read and a
 * write linked by po, so it gains the psc edge "x = 1 → the fetch-add's write"
 * and forbids a = 1, b = 3, c = 0 (and a = 1, b = 2, c = 0).
 * rc11.cat: 24 executions. GenMC 0.11: 22. See README.md. */
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;

void *p0(void *arg)
{
	atomic_store_explicit(&x, 1, memory_order_seq_cst);
	atomic_store_explicit(&y, 1, memory_order_release);
	return NULL;
}

void *p1(void *arg)
{
	int a = atomic_fetch_add_explicit(&y, 1, memory_order_seq_cst);
	int b = atomic_load_explicit(&y, memory_order_relaxed);
	(void)a;
	(void)b;
	return NULL;
}

void *p2(void *arg)
{
	atomic_store_explicit(&y, 3, memory_order_seq_cst);
	int c = atomic_load_explicit(&x, memory_order_seq_cst);
	(void)c;
	return NULL;
}

int main(void)
{
	pthread_t t0, t1, t2;
	pthread_create(&t0, NULL, p0, NULL);
	pthread_create(&t1, NULL, p1, NULL);
	pthread_create(&t2, NULL, p2, NULL);
	return 0;
}

/* Two seq_cst stores to one location, the second read by an acquire load.
 * RC11 orders seq_cst events through happens-before only along po|≠loc; hb;
 * po|≠loc: x = 1 and x = 2 share a location, so x = 1 gets no psc edge to the
 * seq_cst load of y. GenMC 0.11 uses po; hb; po and gains that edge, which closes
 * the cycle x = 1 → r1 = y → y = 1 → r2 = x → x = 1 and forbids
 * r0 = 2, r1 = 0, r2 = 0.
 * rc11.cat: 18 executions. GenMC 0.11: 17. See README.md. */
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;

void *p0(void *arg)
{
	int r0 = atomic_load_explicit(&x, memory_order_acquire);
	int r1 = atomic_load_explicit(&y, memory_order_seq_cst);
	(void)r0;
	(void)r1;
	return NULL;
}

void *p1(void *arg)
{
	atomic_store_explicit(&x, 1, memory_order_seq_cst);
	atomic_store_explicit(&x, 2, memory_order_seq_cst);
	return NULL;
}

void *p2(void *arg)
{
	atomic_store_explicit(&y, 1, memory_order_seq_cst);
	int r2 = atomic_load_explicit(&x, memory_order_seq_cst);
	(void)r2;
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

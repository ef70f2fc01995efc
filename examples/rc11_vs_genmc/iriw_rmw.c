/* IRIW where the first reader sees the seq_cst store x = 1 through a relaxed
 * fetch-add: the seq_cst store happens-before the seq_cst load r1 = x (release
 * sequence through the RMW), so RC11's psc has the edge hb|loc from one to the
 * other and forbids r1 = 2, r2 = 0, r3 = 0. GenMC 0.11's psc has rf instead of
 * hb|loc and no edge here (the store's co-successor, the fetch-add, is not
 * seq_cst), so it allows that outcome.
 * rc11.cat: 32 executions. GenMC 0.11: 33. See README.md. */
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;

void *p0(void *arg)
{
	atomic_store_explicit(&x, 1, memory_order_seq_cst);
	return NULL;
}

void *p1(void *arg)
{
	atomic_fetch_add_explicit(&x, 1, memory_order_relaxed);
	return NULL;
}

void *p2(void *arg)
{
	int r1 = atomic_load_explicit(&x, memory_order_seq_cst);
	int r2 = atomic_load_explicit(&y, memory_order_seq_cst);
	(void)r1;
	(void)r2;
	return NULL;
}

void *p3(void *arg)
{
	atomic_store_explicit(&y, 1, memory_order_seq_cst);
	int r3 = atomic_load_explicit(&x, memory_order_seq_cst);
	(void)r3;
	return NULL;
}

int main(void)
{
	pthread_t t0, t1, t2, t3;
	pthread_create(&t0, NULL, p0, NULL);
	pthread_create(&t1, NULL, p1, NULL);
	pthread_create(&t2, NULL, p2, NULL);
	pthread_create(&t3, NULL, p3, NULL);
	return 0;
}

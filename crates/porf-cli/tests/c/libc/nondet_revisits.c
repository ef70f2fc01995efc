/* Choices that backward revisits delete and re-create. T1 picks c in {0, 1} and
 * stores x = c + 1; T2 reads x, then picks d in {0, 1} and stores y = d; main reads y.
 * All accesses are relaxed and each location has one writer, so there is no co
 * choice: an execution is fixed by c (2), T2's source for x (init or T1's store: 2),
 * d (2) and main's source for y (init or T2's store: 2): 2 * 2 * 2 * 2 = 16, all
 * consistent under rc11 and sc (the two reads are independent). When T1's store
 * revisits T2's read, T2's choice d is deleted; it must be re-explored with both
 * values, and only once. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

bool __VERIFIER_nondet_bool(void);

atomic_int x, y;

void *t1(void *arg)
{
	int c = __VERIFIER_nondet_bool();
	atomic_store_explicit(&x, c + 1, memory_order_relaxed);
	return NULL;
}

void *t2(void *arg)
{
	int r = atomic_load_explicit(&x, memory_order_relaxed);
	int d = __VERIFIER_nondet_bool();
	atomic_store_explicit(&y, d, memory_order_relaxed);
	return (void *)(long)r;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, t1, NULL);
	pthread_create(&b, NULL, t2, NULL);
	int s = atomic_load_explicit(&y, memory_order_relaxed);
	assert(s == 0 || s == 1);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
// expect rc11 sc: safe 16
// expect rc11 sc | --equiv rf: safe 16
// expect rc11 sc | --explorer reference: safe 16

/* Nondet values in two threads, around a read the writer may revisit.
 * With --nondet-range 1..2: the writer stores v in {1, 2}; main reads x from the
 * initialisation (0) or from that store (2 sources), then picks c in {0, 1}.
 * Every (v, source, c) is one execution: 2 * 2 * 2 = 8 complete, and the assertion
 * (r is 0 or the value written) holds in all of them. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

int __VERIFIER_nondet_int(void);
bool __VERIFIER_nondet_bool(void);

atomic_int x;

void *writer(void *arg)
{
	int v = __VERIFIER_nondet_int();
	atomic_store_explicit(&x, v, memory_order_relaxed);
	return (void *)(long)v;
}

int main(void)
{
	pthread_t t;
	void *v;
	pthread_create(&t, NULL, writer, NULL);
	int r = atomic_load_explicit(&x, memory_order_relaxed);
	bool c = __VERIFIER_nondet_bool();
	pthread_join(t, &v);
	assert(r == 0 || r == (int)(long)v);
	assert(c == 0 || c == 1);
	return 0;
}
// expect rc11 sc | --nondet-range 1..2: safe 8
// expect rc11 sc | --nondet-range 1..2 --equiv rf: safe 8
// expect rc11 sc | --nondet-range 1..2 --explorer reference: safe 8
// expect rc11 sc: rejected "--nondet-range LO..HI"
// expect sc | --nondet-range 1..2 --equiv rvf: rejected "not by rf-smc or --equiv rvf"
// expect sc | --nondet-range 1..2 --equiv rf --explorer rf-smc: rejected "not by rf-smc or --equiv rvf"

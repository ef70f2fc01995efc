// A loop with two entries (irreducible: neither A nor B dominates the other), built
// with goto; it ends when main reads flag = 1. Before, --unroll did not bound it: the
// execution in which main keeps reading 0 grew without end.
//
// By hand: the load of x (initially 0, never written) takes the `goto B` entry. A
// depth-first search from the entry takes the if's `then` first, so it discovers B
// before A and the retreating edge is A -> B (A's fall-through): B may start 2 times
// under --unroll 2 (entering B by the goto does not count). The flag loads at B read
// 0 (initial) or 1 (setter's store); after 1 the loop ends: reads 1 (complete), 0 1
// (complete), 0 0 (the second arrival at B from A blocks: cut). 2 complete, 1 blocked,
// 1 cut, under every model (one write of flag, read-read coherence).
// args: --unroll 2
// expect sc tso pso ra rc11 rc11-genmc wra sra: incomplete 2 blocked 1 cut 1 by loop
// The same under every explorer and equivalence (each execution has its own reads-from
// and its own read values):
// expect sc tso rc11 | --explorer reference: incomplete 2 blocked 1 cut 1 by loop
// expect sc tso rc11 | --equiv rf: incomplete 2 blocked 1 cut 1 by loop
// expect sc | --equiv rvf: incomplete 2 blocked 1 cut 1 by loop
// expect sc tso pso | --equiv rf --explorer rf-smc: incomplete 2 blocked 1 cut 1 by loop
// expect sc tso pso | --equiv rf --explorer rf-part-smc: incomplete 2 blocked 1 cut 1 by loop
// expect sc rc11 | --threads 2: incomplete 2 blocked 1 cut 1 by loop
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y, flag;

void *setter(void *arg)
{
	atomic_store(&flag, 1);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, setter, 0);
	if (atomic_load(&x) == 0)
		goto B;
A:
	atomic_fetch_add(&y, 1);
B:
	if (atomic_load(&flag) == 0)
		goto A;
	return 0;
}

// A goto into a while loop's body from after the loop: the cycle test -> exit ->
// goto M -> M -> test never starts the body (the while's own iteration counter never
// sees it) and the search's only retreating edge on it is the while's back edge. That
// edge is counted too (for a loop statement, its (N+1)th arrival blocks, one more
// than the statement's body may start, so loops without goto keep their meaning).
// Before, the cycle was not bounded and the run never ended.
//
// By hand, --unroll 2: each round reads flag at the test (0: the body starts, 1: the
// exit, then goto M), then k++, then arrives at the test by the back edge; the third
// arrival blocks (or the third body start, when the three reads were 0). So every
// execution reads flag exactly 3 times and is cut: the reads are 0^j 1^(3-j), j = 0..3
// (once a read sees setter's 1 the later ones do too): 4 blocked executions, 4 cut,
// none complete, under every model.
// args: --unroll 2
// expect sc tso pso ra rc11 rc11-genmc wra sra: incomplete 0 blocked 4 cut 4 by loop
// The same under every explorer and equivalence (each execution reads its own sequence of
// values):
// expect sc tso rc11 | --explorer reference: incomplete 0 blocked 4 cut 4 by loop
// expect sc tso rc11 | --equiv rf: incomplete 0 blocked 4 cut 4 by loop
// expect sc | --equiv rvf: incomplete 0 blocked 4 cut 4 by loop
// expect sc tso pso | --equiv rf --explorer rf-smc: incomplete 0 blocked 4 cut 4 by loop
// expect sc tso pso | --equiv rf --explorer rf-part-smc: incomplete 0 blocked 4 cut 4 by loop
// expect sc rc11 | --threads 2: incomplete 0 blocked 4 cut 4 by loop
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag;

void *setter(void *arg)
{
	atomic_store(&flag, 1);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, setter, 0);
	int k = 0;
	while (atomic_load(&flag) == 0) {
	M:
		k++;
	}
	goto M;
}

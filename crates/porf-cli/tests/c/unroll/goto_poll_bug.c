// examples/unroll_bug.c written with goto: main polls `flag` at label L and counts
// the polls that read 0; the assertion fails when it polled twice before seeing 1.
// Before, the goto loop was not bounded and every run spun without end.
//
// By hand: L starts at most N times under --unroll N (its N-th backward jump blocks).
// Each load reads 0 (the initial value) or 1 (setter's store); after a 1 the loop
// ends. --unroll 2: reads 1 (complete, polls 0), 0 1 (complete, polls 1), 0 then the
// second backward jump blocks (cut): 2 complete, 1 blocked, cut 1 — no error found,
// but only up to the bound (exit 4). --unroll 3: reads 0 0 1 leave polls = 2 and the
// assertion fails. The same under every model (one write, read-read coherence).
// expect sc tso pso ra rc11 rc11-genmc wra sra | --unroll 2: incomplete 2 blocked 1 cut 1 by loop
// expect sc tso pso ra rc11 rc11-genmc wra sra | --unroll 3: assertion
// The same under every explorer and equivalence:
// expect sc tso rc11 | --unroll 2 --explorer reference: incomplete 2 blocked 1 cut 1 by loop
// expect sc tso rc11 | --unroll 2 --equiv rf: incomplete 2 blocked 1 cut 1 by loop
// expect sc | --unroll 2 --equiv rvf: incomplete 2 blocked 1 cut 1 by loop
// expect sc tso pso | --unroll 2 --equiv rf --explorer rf-smc: incomplete 2 blocked 1 cut 1 by loop
// expect sc | --unroll 3 --equiv rvf: assertion
// expect sc tso rc11 | --unroll 3 --explorer reference: assertion
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag;
atomic_int polls;

void *setter(void *arg)
{
	atomic_store(&flag, 1);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, setter, 0);
L:
	if (atomic_load(&flag) == 0) {
		atomic_fetch_add(&polls, 1);
		goto L;
	}
	assert(atomic_load(&polls) < 2);
	return 0;
}

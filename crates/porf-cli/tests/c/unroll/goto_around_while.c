// A goto loop around a while loop: each round of the goto loop runs the while loop
// afresh (its counter restarts), bumps z and jumps back. Before, the outer goto loop
// was not bounded and the run never ended (the while loop exits as soon as it reads
// 1).
//
// By hand, --unroll 2: label L may start 2 times (the second backward jump blocks);
// the while loop's body may start 2 times per round (the third start blocks). Both
// bodies write, so spin-assume blocks nothing. Once a read of flag sees setter's 1,
// every later read does. Round 1 reads 1, 0 1 or 0 0 1, then round 2 reads 1 and the
// second backward jump blocks (3 executions, cut); or round 1 reads 0 0 0 and the
// third body start blocks (1 execution, cut). 4 blocked, 4 cut, none complete, under
// every model.
// args: --unroll 2
// expect sc tso pso ra rc11 rc11-genmc wra sra: incomplete 0 blocked 4 cut 4 by loop
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag, y, z;

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
	while (atomic_load(&flag) == 0)
		atomic_fetch_add(&y, 1);
	atomic_fetch_add(&z, 1);
	goto L;
}

// An optional block inside a spin loop (the shape of GenMC's saver/spin-no-bisim and
// ttaslock-opt): complete executions are those of the program without the block,
// and an iteration that skips the block is a no-op for spin-assume like one without
// it (the choice touches no memory). By hand, without the block: thread 1 reads x = 0
// or 1 before the loop. Reading 1, it never enters the loop: 1 complete execution.
// Reading 0, each iteration re-reads x; one that reads 0 again is blocked (README
// "Spin loops", rule (a)), and one that reads 1 reaches the header in the state the
// pre-loop read gives had it read 1, so it is blocked too (rule (b)): its
// continuation is the first execution's. 1 complete, as GenMC's 1 on spin-no-bisim.
// expect: safe 1
#include <genmc.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x;
int naps;

static void *waiter(void *arg)
{
	int r = atomic_load(&x);
	while (!r) {
		__VERIFIER_optional(naps++);
		r = atomic_load(&x);
	}
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, waiter, NULL);
	atomic_store(&x, 1);
	pthread_join(t, NULL);
	return 0;
}

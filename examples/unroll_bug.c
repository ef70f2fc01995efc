/* A bug after a loop, for `--unroll`. main polls a flag, counting its polls in a
 * global (a side effect, so GenMC does not turn the loop into an assume), and the
 * assertion after the loop fails when main polled twice.
 *   porf verify examples/unroll_bug.c --unroll 1   # no error; 2 complete, 1 blocked
 *   porf verify examples/unroll_bug.c --unroll 2   # the assertion fails
 * GenMC 0.11 with -unroll=2 kills main at its third loop test and counts that
 * execution as complete: no error, 3 complete executions. See README.md. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag;
atomic_int polls;

void *setter(void *arg)
{
	atomic_store(&flag, 1);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, setter, NULL);
	while (atomic_load(&flag) == 0)
		atomic_fetch_add(&polls, 1);
	assert(atomic_load(&polls) < 2);
	return 0;
}

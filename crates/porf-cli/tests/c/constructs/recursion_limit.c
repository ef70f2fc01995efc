// Recursion that only the other thread can stop, bounded by --recursion-limit 3: wait()
// may be active 3 times at once, so main loads `flag` at most 3 times, and the 4th
// call blocks the execution (counted as cut by the bound). One store of flag = 1; the
// loads read 0 until one reads 1 (reading 1 returns): the read sequences are
// 1 / 0 1 / 0 0 1 (complete, 3) and 0 0 0 (blocked at the bound, 1), under both models.
// The cut makes the run incomplete (exit 4, stopped by the recursion limit).
// args: --recursion-limit 3
// expect rc11 sc: incomplete 3 blocked 1 cut 1 by recursion
// expect-stderr: --recursion-limit 3 recursion bound
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag;

void wait(void)
{
	if (atomic_load(&flag))
		return;
	wait();
}

void *setter(void *arg)
{
	atomic_store(&flag, 1);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, setter, 0);
	wait();
	pthread_join(t, 0);
	return 0;
}

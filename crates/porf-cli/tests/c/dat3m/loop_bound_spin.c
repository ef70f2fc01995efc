// A hinted spin loop: an iteration that read flag = 0 has no effect, and spin-assume
// blocks it before the hint's bound is reached, so no execution is cut. The waiter
// reads flag = 1 (1 complete execution) or spins (blocked, not cut).
// expect rc11 tso sc: safe 1
#include <pthread.h>
#include <stdatomic.h>
extern void __VERIFIER_loop_bound(int);

atomic_int flag;

static void *setter(void *arg)
{
	atomic_store(&flag, 1);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, setter, 0);
	__VERIFIER_loop_bound(1);
	while (!atomic_load(&flag))
		;
	pthread_join(t, 0);
	return 0;
}

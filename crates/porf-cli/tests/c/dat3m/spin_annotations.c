// Dat3M's spin-loop annotations (the `await_while` macro of its dat3m.h, written out
// here) have no effect on the program: a wait for a flag behaves as the plain loop.
// The waiter reads flag = 1 once (1 complete execution); reading 0 is a spin-assume
// block.
// expect rc11 tso sc: safe 1
#include <pthread.h>
#include <stdatomic.h>
extern void __VERIFIER_loop_begin(void);
extern void __VERIFIER_spin_start(void);
extern void __VERIFIER_spin_end(int);

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
	for (int tmp = (__VERIFIER_loop_begin(), 0); __VERIFIER_spin_start(),
	     tmp = !atomic_load(&flag), __VERIFIER_spin_end(!tmp), tmp;)
		;
	pthread_join(t, 0);
	return 0;
}

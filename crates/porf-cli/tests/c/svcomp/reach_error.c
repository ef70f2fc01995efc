// SV-COMP's error function: a call of `reach_error()` is the assertion failure,
// whatever the program's definition of it does (here nothing). Both threads write
// x; main calls reach_error() when it reads 1 after joining thread 1... only if the
// other write came first: reachable.
// expect sc: assertion "reach_error() is called"
#include <pthread.h>

void reach_error(void) {}

int x;

void *w1(void *arg)
{
	__atomic_store_n(&x, 1, __ATOMIC_SEQ_CST);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, w1, 0);
	__atomic_store_n(&x, 2, __ATOMIC_SEQ_CST);
	pthread_join(t, 0);
	if (__atomic_load_n(&x, __ATOMIC_SEQ_CST) == 1)
		reach_error();
	return 0;
}

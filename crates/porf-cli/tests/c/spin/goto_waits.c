/* Waiting loops written with goto: a natural one (label L) and an irreducible one
 * (two entries, A and B; `never` is never written, so main enters at A). Spin-assume
 * must watch both; tests/unroll.rs states what porf answers. */
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag, flag2, never;

void *setter(void *arg)
{
	atomic_store(&flag, 1);
	atomic_store(&flag2, 1);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, setter, 0);
L:
	if (atomic_load(&flag) == 0)
		goto L;
	if (atomic_load(&never) == 1)
		goto B;
A:
	;
B:
	if (atomic_load(&flag2) == 0)
		goto A;
	return 0;
}

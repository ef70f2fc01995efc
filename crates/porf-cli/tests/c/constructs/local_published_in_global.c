// main publishes the address of its local x in the atomic global p and joins the
// reader before returning, so x outlives every access. The reader reads p: NULL (it
// does nothing) or &x, then writes 1 through it; main's later read of x (after the
// join) sees 1 or 0 accordingly. Two executions, one per value the reader's load of p
// reads.
// expect rc11 sc: safe 2
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

_Atomic(int *) p;
atomic_int wrote;

void *reader(void *arg)
{
	int *q = atomic_load(&p);
	if (q) {
		*q = 1;
		atomic_store(&wrote, 1);
	}
	return 0;
}

int main(void)
{
	pthread_t t;
	int x = 0;
	pthread_create(&t, 0, reader, 0);
	atomic_store(&p, &x);
	pthread_join(t, 0);
	assert(x == atomic_load(&wrote));
	return 0;
}

// A thread hands out the address of its thread-local variable through a relaxed
// atomic; another thread writes through it while the owner reads it. Nothing orders
// the two accesses (relaxed publication creates no happens-before): a data race.
// expect rc11 sc: race
#include <pthread.h>
#include <stdatomic.h>

_Thread_local int v;
_Atomic(int *) pub;

static void *owner(void *arg)
{
	atomic_store_explicit(&pub, &v, memory_order_relaxed);
	return (void *)(long)v;
}

static void *other(void *arg)
{
	int *p = atomic_load_explicit(&pub, memory_order_relaxed);
	if (p)
		*p = 1;
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, owner, 0);
	pthread_create(&b, 0, other, 0);
	return 0;
}

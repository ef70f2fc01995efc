// GenMC's interface: __VERIFIER_spawn / __VERIFIER_join are pthread_create /
// pthread_join (the join returns the thread's result); the helped/helping CAS
// annotations only let GenMC prune, porf runs the CASes as written. Two threads try
// CAS 0 -> their id: either succeeds first (2 executions), exactly one succeeds.
// expect rc11 sc: safe 2
#include <assert.h>
#include <genmc.h>
#include <stdatomic.h>

atomic_int x;

static void *helped(void *arg)
{
	int r = 0;
	__VERIFIER_helped_CAS(atomic_compare_exchange_strong(&x, &r, 1));
	return (void *)(long)(r == 0);
}

static void *helping(void *arg)
{
	int r = 0;
	__VERIFIER_helping_CAS(atomic_compare_exchange_strong(&x, &r, 2));
	return (void *)(long)(r == 0);
}

int main(void)
{
	__VERIFIER_thread_t a = __VERIFIER_spawn(helped, 0);
	__VERIFIER_thread_t b = __VERIFIER_spawn(helping, 0);
	long wa = (long)__VERIFIER_join(a);
	long wb = (long)__VERIFIER_join(b);
	assert(wa + wb == 1);
	assert(x == (wa ? 1 : 2));
	return 0;
}

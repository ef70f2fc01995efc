// An `_Atomic unsigned __int128` (one 16-byte cell: load, store, compare-exchange as
// single events) publishing a 128-bit value written to a plain global. By hand, with
// main's load L and compare-exchange C (from 0 to 7), the thread's store W: L reads the
// initial 0 and C succeeds from it (W after C in modification order); L reads 0 and C
// reads W and fails; L reads W and C reads W and fails (C cannot read the initial value
// after L saw W): 3 complete executions under each model (one atomic location,
// seq_cst). When L sees W, the plain value is visible too (W is seq_cst, hence release;
// L acquire): no race, the assertion holds.
// expect sc rc11 tso: safe 3
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

unsigned __int128 x;
_Atomic unsigned __int128 a;

void *t(void *p)
{
	x = ((unsigned __int128)1 << 64) + 1;
	atomic_store(&a, x);
	return 0;
}

int main(void)
{
	pthread_t th;
	pthread_create(&th, 0, t, 0);
	unsigned __int128 v = atomic_load(&a);
	if (v != 0)
		assert(x == v && (unsigned long)(v >> 64) == 1);
	unsigned __int128 e = 0;
	atomic_compare_exchange_strong(&a, &e, 7);
	pthread_join(th, 0);
	return 0;
}

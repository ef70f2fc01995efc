// Two threads each load an `_Atomic` struct of 16 bytes ({pointer, counter}) and
// compare-exchange it to {their own pointer, counter + 1}, seq_cst. By hand: either
// both loads read the initial {0, 0}, and then the first compare-exchange in
// modification order succeeds and the second fails (reading the first's write): 2
// executions (which thread is first); or one thread's load reads the other's
// successful compare-exchange, and both succeed: 2 executions (which is first). 4
// complete executions in all, the same under every model (one location, seq_cst).
// Afterwards the counter is 1 or 2 and the pointer is one of the two.
// expect sc rc11 tso: safe 4
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

struct tp { void *ptr; uintptr_t tag; };
_Atomic struct tp top;
int a, b;

void *t1(void *arg)
{
	struct tp old = atomic_load(&top);
	struct tp new = { &a, old.tag + 1 };
	atomic_compare_exchange_strong(&top, &old, new);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, t1, 0);
	struct tp old = atomic_load(&top);
	struct tp new = { &b, old.tag + 1 };
	atomic_compare_exchange_strong(&top, &old, new);
	pthread_join(t, 0);
	struct tp fin = atomic_load(&top);
	assert(fin.tag == 1 || fin.tag == 2);
	assert(fin.ptr == &a || fin.ptr == &b);
	return 0;
}

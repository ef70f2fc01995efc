// The textbook ABA fix: a Treiber-stack top as an `_Atomic` struct of a pointer and
// a counter, updated with a 16-byte compare-exchange (one event: porf-c's
// atomic_record.rs). One thread: the load reads the zero-initialised {NULL, 0}, the
// compare-exchange from it succeeds and the final load reads {&n, 1}: 1 complete
// execution, no error.
// expect: safe 1
#include <assert.h>
#include <stdatomic.h>
#include <stddef.h>

struct node {
	struct node *next;
};

struct top {
	struct node *ptr;
	long count;
};

_Atomic struct top stack;

int main(void)
{
	static struct node n;
	struct top old = atomic_load(&stack);
	struct top new = { &n, old.count + 1 };
	assert(atomic_compare_exchange_strong(&stack, &old, new));
	struct top fin = atomic_load(&stack);
	assert(fin.ptr == &n && fin.count == 1);
	return 0;
}

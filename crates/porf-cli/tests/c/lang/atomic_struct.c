// The textbook ABA fix: a Treiber-stack top as an `_Atomic` struct of a pointer and
// a counter, updated with a 16-byte compare-exchange. porf's atomic accesses are of
// one scalar of up to 8 bytes, so the declaration the execution reaches is an
// unsupported error naming the construct (exit code 3), never a wrong answer.
// expect: rejected "`_Atomic` structs and unions are not supported"
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
	atomic_compare_exchange_strong(&stack, &old, new);
	return 0;
}

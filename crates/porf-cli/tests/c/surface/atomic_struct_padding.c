// An `_Atomic` struct with padding bytes: C11's compare-exchange compares object
// representations, padding included, and porf does not model padding contents, so
// porf refuses it where an execution uses it (exit 3).
// expect: rejected "padding bytes"
#include <stdatomic.h>

struct s { char c; int x; };
_Atomic struct s g;

int main(void)
{
	struct s v = atomic_load(&g);
	return v.c;
}

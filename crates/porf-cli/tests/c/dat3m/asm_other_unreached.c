// Other inline assembly is refused only where an execution reaches it: `nop` in a
// function nobody calls, and an operand-taking `xchg` in a branch no execution takes,
// leave the program's one execution alone.
// expect rc11 tso: safe 1
#include <stdatomic.h>

atomic_int x;

void never_called(void)
{
	asm volatile("nop");
}

int main(void)
{
	int v = 0;
	if (atomic_load(&x) == 42)
		asm volatile("xchg %0, %1" : "+r"(v), "+m"(x));
	return v;
}

// GenMC's optional block (genmc.h: `if (__VERIFIER_opt_begin()) { x;
// __VERIFIER_assume(0); }`): the thread skips the block, or runs it and blocks. By
// hand: one thread; skipping gives the one complete execution, entering runs the
// load and blocks: 1 complete, 1 blocked.
// expect: safe 1 blocked 1
#include <genmc.h>
#include <stdatomic.h>

atomic_int x;

int main(void)
{
	__VERIFIER_optional(atomic_load(&x));
	return 0;
}

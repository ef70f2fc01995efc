// A hint that is large enough cuts nothing: `for` runs its body exactly 4 times under
// `__VERIFIER_loop_bound(4)` (the 5th start would be cut, but the condition ends the
// loop first): 1 complete execution, exit 0. The hint belongs to the first loop only:
// the second one runs 6 times, unbounded. With `--unroll 2` as well, the smaller bound
// (2) cuts the first loop.
// expect rc11 sc: safe 1
// expect rc11 | --unroll 2: incomplete 0 blocked 1 cut 1 by loop
#include <assert.h>
extern void __VERIFIER_loop_bound(int);

int main(void)
{
	int n = 0;
	int const depth = 3;
	__VERIFIER_loop_bound(depth + 1);
	for (int i = 0; i < 4; i++)
		n++;
	for (int j = 0; j < 6; j++)
		n++;
	assert(n == 10);
	return 0;
}

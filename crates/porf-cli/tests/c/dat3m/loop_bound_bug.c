// An error within the bound is found: the assertion fails in the body's 3rd run, and
// the hint allows 3 runs.
// expect rc11 sc: assertion
#include <assert.h>
extern void __VERIFIER_loop_bound(int);

int main(void)
{
	__VERIFIER_loop_bound(3);
	for (int i = 0; i < 100; i++)
		assert(i != 2);
	return 0;
}

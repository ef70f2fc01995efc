// An error beyond the bound is not reached: the assertion would fail in the 6th run,
// the hint allows 3. porf says so: no error up to the bound, exit 4, not "safe".
// expect rc11 sc: incomplete 0 blocked 1 cut 1 by loop
#include <assert.h>
extern void __VERIFIER_loop_bound(int);

int main(void)
{
	__VERIFIER_loop_bound(3);
	for (int i = 0; i < 100; i++)
		assert(i != 5);
	return 0;
}

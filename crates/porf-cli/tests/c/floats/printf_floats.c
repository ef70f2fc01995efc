// printf's floating conversions, checked in the witness by c_floats.rs (the expected
// text there follows C11 7.21.6.1: %f has 6 decimals by default, %.Nf N; %e is
// d.dddddde±XX; %g picks %e when the exponent is < -4 or >= the precision and drops
// trailing zeros; a float argument is promoted to double; rounding is to nearest on
// the exact binary value). Every execution ends in the failing assertion.
// expect: assertion
#include <assert.h>
#include <stdio.h>

float third = 1.0f / 3;

int main(void)
{
	double x = 2.5;
	printf("%f|%.2f|%e|%g|%g|%8.3f|%-6.1f|%+.0f|%g\n", x, 1.0 / 3, 1234.5, 1e-5,
	       100000.0, -x, third, 0.5, -0.0);
	assert(x != 2.5);
	return 0;
}

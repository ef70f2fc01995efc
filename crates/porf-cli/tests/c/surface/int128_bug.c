// A 64-bit product that overflows where the 128-bit one does not: 2^32 * 2^32 is 0 in
// `unsigned long` (wraps modulo 2^64) but 2^64 in `unsigned __int128`. The program
// asserts that the two agree: it fails.
// expect: assertion "wide == narrow"
#include <assert.h>

int main(void)
{
	unsigned long a = 1UL << 32;
	unsigned long narrow = a * a;
	unsigned __int128 wide = (unsigned __int128)a * a;
	assert(wide == narrow);
	return 0;
}

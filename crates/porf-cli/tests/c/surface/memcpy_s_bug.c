// A program that expects memcpy_s to behave as memmove on overlapping ranges: Annex
// K makes overlap a runtime-constraint violation (nonzero result, destination
// zeroed), so the first assertion fails.
// expect: assertion
#define __STDC_WANT_LIB_EXT1__ 1
#include <assert.h>
#include <string.h>

int a[4] = {1, 2, 3, 4};

int main(void)
{
	errno_t r = memcpy_s(a + 1, 3 * sizeof(int), a, 3 * sizeof(int));
	assert(r == 0);
	return 0;
}

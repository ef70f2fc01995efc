// A type-generic maximum written with `_Generic` that picks the wrong helper for
// `long` (the `int` one truncates): the assertion fails.
// expect: assertion
#include <assert.h>

static int max_int(int a, int b) { return a > b ? a : b; }
static long max_long(long a, long b) { return a > b ? a : b; }
#define MAX(a, b) _Generic((a), long: max_int, default: max_long)(a, b)

int main(void)
{
	long big = 1L << 40;
	assert(MAX(big, 1L) == big);
	return 0;
}

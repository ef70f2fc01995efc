// `--data-model ilp32`: `long` has 4 bytes (it wraps at 32 bits) and <limits.h> and
// <stdint.h> follow (64-bit types are `long long`). Under the default LP64 the first
// assertion fails.
// expect sc | --data-model ilp32: safe 1
// expect sc | --m32: safe 1
// expect sc: assertion "sizeof(long) == 4"
#include <assert.h>
#include <limits.h>
#include <stdint.h>

int main(void)
{
	assert(sizeof(long) == 4);
	unsigned long u = 0;
	u--;
	assert(u == ULONG_MAX && u == 4294967295UL);
	long l = LONG_MAX;
	assert(l == 2147483647L);
	assert(sizeof(int64_t) == 8 && sizeof(long long) == 8);
	int64_t big = INT64_MAX;
	assert(big > 0 && (uint64_t)big + 1 == 9223372036854775808ULL);
	return 0;
}

// GCC's bit builtins, values from GCC's documentation.
// expect rc11 sc: safe 1
#include <assert.h>

int main(void)
{
	assert(__builtin_ffs(0) == 0 && __builtin_ffs(8) == 4 && __builtin_ffs(-1) == 1);
	assert(__builtin_ffsl(1L << 40) == 41);
	assert(__builtin_clz(1) == 31 && __builtin_clzl(1) == 63 && __builtin_clzll(1ULL << 63) == 0);
	assert(__builtin_ctz(12) == 2 && __builtin_ctzl(1L << 50) == 50);
	assert(__builtin_popcount(255) == 8 && __builtin_popcount(-1) == 32);
	assert(__builtin_popcountll(-1LL) == 64);
	return 0;
}

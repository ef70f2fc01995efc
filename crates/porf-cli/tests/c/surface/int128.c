// GCC's 128-bit integers (`__int128`, `unsigned __int128`): + - * / % shifts, bitwise
// operations, comparisons and conversions from and to 64-bit types, in globals and
// locals. Each value below is computed by hand: 2^64 = 1 << 64;
// (2^64 - 1)^2 = 2^128 - 2^65 + 1, whose low 64 bits are 1 and high 64 bits 2^64 - 2;
// (-5)^2 = 25, -5 / 2 = -2 and -5 % 2 = -1 (C11 truncates toward zero); a signed shift
// right of -1 is -1; (unsigned __int128)-1 is 2^128 - 1 > 2^64; 2^64 - 1 widened
// unsigned plus 1 is 2^64. One thread: 1 complete execution.
// expect: safe 1
#include <assert.h>
#include <stdint.h>
unsigned __int128 g;
__int128 h = -5;
int main(void)
{
	unsigned __int128 one = 1;
	unsigned __int128 x = one << 64;          /* 2^64 */
	assert(x != 0);
	assert((unsigned long)x == 0);            /* low 64 bits */
	assert((unsigned long)(x >> 64) == 1);
	unsigned __int128 m = (unsigned __int128)UINT64_MAX * UINT64_MAX; /* 2^128 - 2^65 + 1 */
	assert((unsigned long)m == 1);
	assert((unsigned long)(m >> 64) == UINT64_MAX - 1);
	assert(m / UINT64_MAX == UINT64_MAX);
	assert(m % 7 == ((unsigned __int128)UINT64_MAX * UINT64_MAX) % 7);
	g = x + x;                                  /* 2^65 */
	assert(g > x && (g >> 65) == 1);
	__int128 s = -1;
	assert(s < 0 && (unsigned __int128)s > x);
	assert((long)(s >> 100) == -1);
	assert(h * h == 25 && h / 2 == -2 && h % 2 == -1);
	__int128 big = (__int128)1 << 100;
	assert(big - 1 < big && -big < 0);
	assert((big | 1) - big == 1);
	long l = -3;
	__int128 w = l;
	assert(w == -3 && (unsigned __int128)w + 3 == 0);
	unsigned long u = UINT64_MAX;
	unsigned __int128 wu = u;
	assert(wu + 1 == x);
	assert(sizeof(__int128) == 16 && _Alignof(unsigned __int128) == 16);
	return 0;
}

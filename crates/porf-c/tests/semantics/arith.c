/* Integer arithmetic: promotions, usual arithmetic conversions, wrap-around,
 * shifts, division, conversions, compound assignment, ++/--, logical operators. */
#include <assert.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

static int calls;

static int bump(int v)
{
	calls++;
	return v;
}

int main(void)
{
	unsigned char uc = 255;
	uc++;
	assert(uc == 0);
	signed char sc = 127;
	sc += 1;
	assert(sc == -128);
	int i = INT_MAX;
	unsigned u = (unsigned)i + 1u;
	assert(u == 2147483648u);
	assert(-1 < 0);
	assert(!(-1 < 0u));
	assert((long)-1 < 0u);
	assert(-7 / 2 == -3 && -7 % 2 == -1);
	assert(7u / 2 == 3);
	assert((1 << 4) == 16 && (-16 >> 2) == -4);
	assert((0xF0u >> 4) == 0xF);
	assert((uint8_t)300 == 44);
	assert((int16_t)70000 == 4464);
	assert((int)(char)0x1ff == -1);
	long l = 1L << 40;
	assert(l == 1099511627776L);
	assert((int)l == 0);
	unsigned long ul = (unsigned long)-1;
	assert(ul == ULONG_MAX);
	assert(sizeof(int) == 4 && sizeof(long) == 8 && sizeof(char) == 1);
	assert(sizeof(short) == 2 && sizeof(void *) == 8 && sizeof(bool) == 1);
	assert(sizeof i == 4 && sizeof(long long) == 8);
	bool b = 5;
	assert(b == 1);
	b--;
	assert(b == 0);
	b--;
	assert(b == 1);
	int x = 10;
	x -= 3;
	x *= 4;
	x /= 3;
	x %= 5;
	x <<= 3;
	x |= 1;
	x ^= 3;
	x &= ~4;
	assert(x == 34);
	int y = x++;
	assert(y == 34 && x == 35);
	y = ++x;
	assert(y == 36);
	y = x--;
	--x;
	assert(y == 36 && x == 34);
	calls = 0;
	assert(!(bump(0) && bump(1)));
	assert(bump(1) || bump(2));
	assert(calls == 2);
	int t = (calls = 7, calls + 1);
	assert(t == 8);
	assert((x > 0 ? 1 : -1) == 1);
	assert((x < 0 ? 1u : -1) == UINT_MAX);
	assert(~0 == -1 && -INT_MAX - 1 == INT_MIN && -(unsigned)1 == UINT_MAX);
	assert('a' == 97 && '\n' == 10 && '\x41' == 65 && '\101' == 65);
	assert(0x7fffffff + 0 == INT_MAX && 017 == 15);
	enum { A, B = 5, C } e = C;
	assert(e == 6 && A == 0);
	return 0;
}

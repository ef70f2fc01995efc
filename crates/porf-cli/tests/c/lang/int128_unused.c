// GCC's 128-bit integers parse (no syntax error) and, where no execution uses them,
// are no error: a typedef, a helper computing a 128-bit product that is never
// called. One thread: one execution.
// expect: safe 1
#include <stdint.h>

typedef unsigned __int128 u128;

static uint64_t mulhi(uint64_t a, uint64_t b)
{
	u128 p = (u128)a * b;
	__int128_t s = 0;
	return (uint64_t)(p >> 64) + (uint64_t)s;
}

int main(void)
{
	uint64_t x = 3;
	return x == 3 ? 0 : 1;
}

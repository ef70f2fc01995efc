// Unsupported constructs in functions no execution calls do not reject the program
// (issue 25, item 2): a glibc-style byte-swap helper using a builtin porf does not
// know, a `long double` local, an `asm` porf cannot map, a global of an unsupported
// type that nothing uses. One thread, no branching: one execution.
// expect: safe 1
#include <stdint.h>

static uint32_t bswap(uint32_t x) { return __builtin_bswap32(x); }

static int fpu(void)
{
	long double d = 1.5;
	return (int)d;
}

static void fence(void) { __asm__ __volatile__("pause" ::: "memory"); }

long double unused_global = 2.0;

int main(void)
{
	int x = 1;
	x = x + 1;
	return x == 2 ? 0 : 1;
}

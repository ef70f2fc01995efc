// `_Alignas` (C11 6.7.5) on objects with static storage: the object's address is a
// multiple of the alignment (porf lays the global area out with it); `_Alignas(T)`
// asks for `T`'s alignment, `_Alignas(0)` for nothing. `_Alignof` gives a type's
// alignment (LP64). `_Noreturn` (6.7.4) is accepted on a function that never
// returns. One thread: one execution.
// expect: safe 1
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>

char before;
_Alignas(64) char line_a;
_Alignas(64) char line_b;
_Alignas(long) char c;
_Alignas(0) int plain;

_Noreturn static void fail(void)
{
	abort();
}

int main(void)
{
	static _Alignas(32) short s;
	_Alignas(16) int local = 3;
	assert((uintptr_t)&line_a % 64 == 0 && (uintptr_t)&line_b % 64 == 0);
	assert((uintptr_t)&line_b - (uintptr_t)&line_a >= 64);
	assert((uintptr_t)&c % 8 == 0 && (uintptr_t)&s % 32 == 0);
	assert(_Alignof(char) == 1 && _Alignof(long) == 8 && _Alignof(double) == 8);
	if (local != 3)
		fail();
	return 0;
}

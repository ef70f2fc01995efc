// `_Generic` (C11 6.5.1.1): the controlling expression is not evaluated (its side
// effect never happens); its type after lvalue conversion (qualifiers and `_Atomic`
// dropped), array and function decay selects the association; the selected
// expression may be an lvalue. One thread: one execution.
// expect: safe 1
#include <assert.h>
#include <stdatomic.h>

#define KIND(x) _Generic((x), int: 1, long: 2, char *: 3, double: 4, default: 0)

int main(void)
{
	int i = 0;
	long l = 0;
	char buf[4];
	const int ci = 5;
	atomic_int ai = 0;
	assert(KIND(i) == 1 && KIND(l) == 2 && KIND(buf) == 3 && KIND(1.5) == 4);
	assert(KIND('c') == 1 && KIND(ci) == 1 && KIND(ai) == 1 && KIND((short)1) == 0);
	assert(KIND(i++) == 1 && i == 0);
	_Generic(l, long: l, default: i) = 7;
	assert(l == 7 && i == 0);
	return 0;
}

// A `_Noreturn` function (C11 6.7.4) that is reached ends the program with its
// abort: the error porf reports.
// expect: abort
#include <stdlib.h>

_Noreturn static void fail(void)
{
	abort();
}

int main(void)
{
	int x = 1;
	if (x == 1)
		fail();
	return 0;
}

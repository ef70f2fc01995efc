// A statement expression whose value is wrong: ({ int z = 2; z * x; }) is 14 for
// x = 7, so the assertion that it is 15 fails in the only execution.
// expect rc11 sc: assertion
#include <assert.h>

int main(void)
{
	int x = 7;
	assert(({ int z = 2; z * x; }) == 15);
	return 0;
}

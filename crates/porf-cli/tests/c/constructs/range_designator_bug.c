// `[0 ... 2] = 1` covers indices 0, 1 and 2 only: a[3] is 0, so the assertion fails.
// expect rc11 sc: assertion
#include <assert.h>

int a[4] = { [0 ... 2] = 1 };

int main(void)
{
	assert(a[3] == 1);
	return 0;
}

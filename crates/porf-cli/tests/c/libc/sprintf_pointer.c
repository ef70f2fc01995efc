// porf's `%p` text names the object (`&x`), not an address: a buffer would hold text
// the real program never produces, so sprintf of `%p` is rejected when it runs.
// expect rc11 sc: rejected "`%p` of the text of a pointer is not supported"
#include <stdio.h>

int x;

int main(void)
{
	char b[32];
	sprintf(b, "%p", (void *)&x);
	return b[0] == 0;
}

/* strlen of a heap string without its terminating zero: it reads the byte past the
 * 3-byte block, an out-of-bounds access. */
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *p = malloc(3);
	p[0] = 'a';
	p[1] = 'b';
	p[2] = 'c';
	return (int)strlen(p);
}
// expect rc11 sc: memory "out-of-bounds heap access"

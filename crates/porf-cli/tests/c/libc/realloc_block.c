/* realloc of an allocated block: porf cannot copy untyped heap memory, so this is
 * unsupported input (exit code 3), not a silent wrong copy. */
#include <stdlib.h>

int main(void)
{
	int *p = malloc(sizeof(int));
	*p = 1;
	p = realloc(p, 2 * sizeof(int));
	return p[0];
}
// expect rc11 sc: rejected "realloc of an allocated block is not supported"

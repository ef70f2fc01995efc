/* realloc of a freed block is the error free would get there: a double free. One
 * thread, one execution. */
#include <stdlib.h>

int main(void)
{
	int *p = malloc(2 * sizeof(int));
	p[0] = 1;
	p[1] = 2;
	free(p);
	p = realloc(p, 4 * sizeof(int));
	return 0;
}
// expect rc11 sc: memory "double free"

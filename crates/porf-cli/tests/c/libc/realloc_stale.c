/* Use of the old pointer after realloc moved the block: realloc frees the old block
 * (C11 7.22.3.5), so the read of p[0] after it is an access to freed memory. One
 * thread: the free is po-before (so hb-before) the read; the error is in the only
 * execution. */
#include <stdlib.h>

int main(void)
{
	int *p = malloc(2 * sizeof(int));
	p[0] = 1;
	p[1] = 2;
	int *q = realloc(p, 4 * sizeof(int));
	q[2] = p[0];
	free(q);
	return 0;
}
// expect rc11 sc: memory "access to freed memory"

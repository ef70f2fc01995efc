/* realloc of an allocated block: an int array grows from 2 to 4 elements. The old
 * contents are copied (C11 7.22.3.5), the new elements are written, then the array
 * shrinks back to 1 element, and realloc(p, 0) frees it (glibc: returns NULL).
 * One thread, no choice: 1 complete execution. */
#include <assert.h>
#include <stdlib.h>

int main(void)
{
	int *p = malloc(2 * sizeof(int));
	p[0] = 10;
	p[1] = 11;
	int *q = realloc(p, 4 * sizeof(int));
	assert(q != NULL && q != p);
	assert(q[0] == 10 && q[1] == 11);
	q[2] = 12;
	q[3] = 13;
	assert(q[2] + q[3] == 25);
	q = realloc(q, sizeof(int));
	assert(q[0] == 10);
	q = realloc(q, 0);
	assert(q == NULL);
	return 0;
}
// expect rc11 sc: safe 1

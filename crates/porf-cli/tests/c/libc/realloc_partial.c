/* realloc of a partly written block (C11 7.22.3.5 allows it: the copied bytes of a
 * never-written cell stay indeterminate). p[0] and p[2] are written, p[1] and p[3]
 * never are; the block grows to 6 ints. The written cells arrive, and the new ones are
 * written before they are read. One thread, no choice: 1 complete execution, no
 * error (an uninitialised cell is only an error when it is read). */
#include <assert.h>
#include <stdlib.h>

int main(void)
{
	int *p = malloc(4 * sizeof(int));
	p[0] = 1;
	p[2] = 3;
	int *q = realloc(p, 6 * sizeof(int));
	assert(q[0] == 1 && q[2] == 3);
	q[1] = 2;
	q[4] = 5;
	assert(q[1] + q[4] == 7);
	free(q);
	return 0;
}
// expect rc11 sc: safe 1

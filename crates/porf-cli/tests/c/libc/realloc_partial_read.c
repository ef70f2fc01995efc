/* realloc keeps a never-written cell uninitialised: p[1] is never written before the
 * realloc, so reading q[1] afterwards reads uninitialised memory, the same error as
 * reading p[1] would have been. One thread: the error is found in the only execution. */
#include <stdlib.h>

int main(void)
{
	int *p = malloc(2 * sizeof(int));
	p[0] = 1;
	int *q = realloc(p, 4 * sizeof(int));
	int x = q[1];
	free(q);
	return x;
}
// expect rc11 sc: memory "read of uninitialised memory"

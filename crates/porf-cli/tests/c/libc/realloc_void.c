/* realloc of an allocated block through a void *: porf copies a block cell by cell
 * with the type of its objects, which a void * does not give: unsupported input
 * (exit code 3) at run time, not a silent wrong copy. realloc(NULL, n) through the
 * same void * is fine (it is malloc). */
#include <stdlib.h>

int main(void)
{
	void *v = NULL;
	v = realloc(v, 2 * sizeof(int));
	*(int *)v = 1;
	v = realloc(v, 4 * sizeof(int));
	free(v);
	return 0;
}
// expect rc11 sc: rejected "realloc of an allocated block through a `void *`"

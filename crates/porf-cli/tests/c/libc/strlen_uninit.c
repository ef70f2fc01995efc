/* strlen of a heap block whose second byte was never written: a read of
 * uninitialised memory. */
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *p = malloc(4);
	p[0] = 'a';
	return (int)strlen(p);
}
// expect rc11 sc: memory "uninitialised memory"

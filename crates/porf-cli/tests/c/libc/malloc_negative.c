/* malloc(-2): the size converts to 2^64 - 2 bytes; GenMC reports "Invalid size in
 * malloc()" (its test wrong/infr/alloc-invalid-size). */
#include <stdlib.h>

int main(void)
{
	void *p = malloc(-2);
	return p == NULL;
}
// expect rc11 sc: memory "invalid size in malloc()"

/* calloc whose size product overflows size_t (2^62 * 8 = 2^65): no block of that
 * size exists; reported like malloc of an invalid size. */
#include <stdlib.h>

int main(void)
{
	void *p = calloc((size_t)1 << 62, 8);
	return p == NULL;
}
// expect rc11 sc: memory "invalid size in calloc()"

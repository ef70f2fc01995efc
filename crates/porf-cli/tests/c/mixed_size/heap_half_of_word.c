// A 4-byte store and a 2-byte load at the same heap address: the same first byte but
// different widths, so the load would read the whole 4-byte value. Rejected (exit 3).
// expect: rejected "mixed-size accesses: 2-byte load at heap#0.0+0"
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>

int main(void)
{
	uint32_t *p = malloc(4);
	*p = 0x00010002;
	uint16_t *h = (uint16_t *)p;
	assert(*h == 2);
	free(p);
	return 0;
}

// A 4-byte store to a heap block and a 1-byte load of its second byte: porf's shared
// memory has one cell per access start, so the load would not see the byte the store
// wrote. porf says so (exit 3) instead of answering.
// expect: rejected "mixed-size accesses: 1-byte load at heap#0.0+1"
// expect sc | --explorer reference: rejected "overlaps 4-byte store at heap#0.0+0"
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>

int main(void)
{
	uint32_t *p = malloc(8);
	*p = 0x01020304;
	uint8_t *b = (uint8_t *)p;
	assert(b[1] == 3);
	free(p);
	return 0;
}

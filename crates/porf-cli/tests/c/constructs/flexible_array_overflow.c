// The ring has room for two slots after its header (8 + 2 * 8 = 24 bytes): writing
// slots[2] (bytes 24..31) is beyond the allocation, an out-of-bounds heap access.
// expect rc11 sc: memory "out-of-bounds"
#include <stdlib.h>

struct ring {
	int n;
	long slots[];
};

int main(void)
{
	struct ring *r = malloc(sizeof(struct ring) + 2 * sizeof(long));
	r->slots[1] = 1;
	r->slots[2] = 1;
	return 0;
}

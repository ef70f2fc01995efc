// Heap memory used the ordinary ways, each cell always with its own type: a struct of
// mixed field widths (1, 2, 4 and 8 bytes, so neighbouring cells are within 8 bytes of
// each other but never overlap), a struct copy between heap blocks, memset and memcpy
// of typed objects, a calloc'd array read before any write (zeros), realloc(NULL, n),
// and a union in the heap always accessed through the same member. None of these is a
// mixed-size access: one thread, one execution, no error.
// expect: safe 1
// expect sc | --explorer reference: safe 1
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct rec {
	char c;
	short s;
	int i;
	long l;
	char tail[3];
};

union cell {
	uint64_t w;
	uint8_t b[8];
};

int main(void)
{
	struct rec *a = malloc(sizeof(struct rec));
	struct rec *b = malloc(sizeof(struct rec));
	memset(a, 0, sizeof(struct rec));
	a->c = 1;
	a->s = 2;
	a->i = 3;
	a->l = 4;
	a->tail[2] = 5;
	*b = *a;
	assert(b->c == 1 && b->s == 2 && b->i == 3 && b->l == 4);
	assert(b->tail[0] == 0 && b->tail[2] == 5);

	int *z = calloc(4, sizeof(int));
	assert(z[0] == 0 && z[3] == 0);
	int *y = realloc(0, 4 * sizeof(int));
	memcpy(y, z, 4 * sizeof(int));
	y[1] = 9;
	assert(y[1] == 9 && y[2] == 0);

	union cell *u = malloc(sizeof(union cell));
	u->w = 7;
	u->w += 1;
	assert(u->w == 8);

	free(a);
	free(b);
	free(z);
	free(y);
	free(u);
	return 0;
}

// `sizeof` of a type holding a pointer under `--data-model ilp32`: porf's pointers
// have 8 bytes, so a value computed from that size could differ from a 32-bit
// target's. As the size argument of malloc and memset it is exact (porf lays the
// block out with the same 8-byte pointers); assigned to a variable (line 23,
// column 13) it is refused where the execution reaches it. Under LP64 every line is
// ordinary C and the assertions hold: 1 complete execution.
// expect sc | --data-model ilp32: rejected "porf's pointers have 8 bytes, so its size is not the 32-bit one"
// expect sc: safe 1
#include <assert.h>
#include <stdlib.h>
#include <string.h>

struct node {
	int key;
	struct node *next;
};

int main(void)
{
	struct node *n = malloc(sizeof(struct node));
	if (!n)
		return 0;
	size_t w = sizeof(void *);
	memset(n, 0, sizeof(struct node));
	n->key = 1;
	assert(n->next == 0 && w == 8);
	free(n);
	return 0;
}

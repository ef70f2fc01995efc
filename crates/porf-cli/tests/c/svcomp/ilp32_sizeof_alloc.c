// `sizeof` of pointer-holding types under `--data-model ilp32`, only where porf's
// 8-byte layout is exact: the size arguments of malloc, calloc and memset and the
// layout of the objects they size. The list is built and read back through its
// pointers; the assertions hold in both models: 1 complete execution.
// expect sc | --data-model ilp32: safe 1
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
	struct node *a = malloc(sizeof(struct node));
	struct node **slots = calloc(2, sizeof(struct node *));
	if (!a || !slots)
		return 0;
	memset(a, 0, sizeof(*a));
	a->key = 3;
	slots[1] = a;
	assert(slots[0] == 0 && slots[1]->key == 3 && slots[1]->next == 0);
	free(slots);
	free(a);
	return 0;
}

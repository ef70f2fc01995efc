// Pointers converted to 4-byte integers under `--data-model ilp32` (porf's pointers
// keep 8 bytes): an address that fits in 4 bytes keeps its value, so the global's
// address survives the round trip through `unsigned long` (4 bytes under ILP32) and
// `uintptr_t`, and container_of's `(unsigned long)&((T *)0)->member` is the member's
// offset. All assertions hold in both models: 1 complete execution.
// expect sc | --data-model ilp32: safe 1
// expect sc: safe 1
#include <assert.h>
#include <stdint.h>

struct node {
	int key;
	int link;
};

struct node g;

int main(void)
{
	unsigned long a = (unsigned long)&g;
	struct node *back = (struct node *)a;
	back->key = 7;
	assert(g.key == 7);
	uintptr_t u = (uintptr_t)&g.link;
	assert((int *)u == &g.link);
	int *l = &g.link;
	struct node *n = (struct node *)((char *)l - (unsigned long)(&((struct node *)0)->link));
	assert(n == &g);
	assert((unsigned long)(&((struct node *)0)->link) == sizeof(int));
	return 0;
}

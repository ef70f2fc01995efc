/* Less common constructs: typeof, _Alignof, anonymous members, block-scope extern
 * and function declarations, void conditionals, comma expressions, casts of
 * function pointers, pointer-to-bool conversion, enums as array sizes. */
#include <assert.h>
#include <stdbool.h>
#include <stddef.h>

struct tagged {
	int kind;
	union {
		int i;
		long l;
	};
	struct {
		char x, y;
	};
};

enum { SLOTS = 3 };
int slots[SLOTS];
int hits;

static void hit(void) { hits++; }
static void miss(void) { hits += 100; }
static int twice(int v) { return 2 * v; }

int main(void)
{
	__typeof__(hits) copy = 5;
	assert(sizeof copy == sizeof(int) && _Alignof(long) == 8);
	struct tagged t = {.kind = 1};
	t.l = 1L << 33;
	t.y = 'y';
	assert(t.l == 1L << 33 && t.y == 'y' && t.x == 0);
	assert(offsetof(struct tagged, l) == 8 && sizeof(struct tagged) == 24);
	{
		extern int hits;
		int helper(int);
		hits = helper(3);
	}
	assert(hits == 6);
	hits = 0;
	for (int i = 0, j = 10; i < j; i++, j--)
		i % 2 ? hit() : miss();
	assert(hits == 302);
	int (*fp)(int) = (int (*)(int))twice;
	void *vp = (void *)fp;
	assert(((int (*)(int))vp)(4) == 8);
	int *p = &slots[SLOTS - 1];
	bool nonnull = p;
	assert(nonnull && (p == &slots[2]) && !(p == NULL));
	int q = (copy++, copy * 2);
	assert(q == 12);
	unsigned long big = sizeof(slots) / sizeof(slots[0]);
	assert(big == SLOTS);
	return 0;
}

int helper(int v)
{
	return v * 2;
}

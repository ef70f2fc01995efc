// The callee changes its copy of the struct, never the caller's: x.a is still 1, so
// an assertion expecting the callee's change fails.
// expect rc11 sc: assertion
#include <assert.h>

struct box {
	int a;
};

void bump(struct box b)
{
	b.a++;
}

int main(void)
{
	struct box x = { 1 };
	bump(x);
	assert(x.a == 2);
	return 0;
}

// As local_union_escaping.c, but the parent reads back the member the child wrote:
// the same cell, no mixed-size access. The child's write happens before the read
// (through the join), so the read sees 0x100000002: one execution, no error.
// expect: safe 1
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

union word {
	uint64_t w;
	uint32_t h[2];
};

void *child(void *arg)
{
	union word *u = arg;
	u->w = 0x100000002ull;
	return 0;
}

void *parent(void *arg)
{
	pthread_t t;
	union word x;
	pthread_create(&t, 0, child, &x);
	pthread_join(t, 0);
	assert(x.w == 0x100000002ull);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, parent, 0);
	pthread_join(t, 0);
	return 0;
}

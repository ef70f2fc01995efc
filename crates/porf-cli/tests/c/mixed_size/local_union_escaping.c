// A union local of a thread other than main whose address reaches a child thread
// lives in an engine block (one cell per access start): the child writes the 8-byte
// member, the parent joins it and reads a 4-byte member. That read is rejected
// (exit 3) rather than answered from the wrong cell.
// expect: rejected "mixed-size accesses: 4-byte load"
// expect sc | --explorer reference: rejected "overlaps 8-byte store"
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
	assert(x.h[0] == 2);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, parent, 0);
	pthread_join(t, 0);
	return 0;
}

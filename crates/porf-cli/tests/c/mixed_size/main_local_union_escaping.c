// A union local of main whose address reaches another thread: it lives in main's
// shared frame, an engine block (never freed: main's frame outlives every thread).
// The child writes its 8-byte member, main then reads a 4-byte member: rejected with
// the position (exit 3), never answered from the wrong cell.
// expect: rejected "mixed-size accesses: 4-byte load"
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

int main(void)
{
	pthread_t t;
	union word x;
	pthread_create(&t, 0, child, &x);
	pthread_join(t, 0);
	assert(x.h[0] == 2);
	return 0;
}

/* realloc of a block another thread allocated, and a thread reading the moved data.
 * main allocates a 2-int block, fills it and spawns `grower`, which reallocs it to 3
 * ints (the old size, 8 bytes, is learnt from main's malloc), writes the third
 * element and publishes the new block with a release store of `ready`; main spins
 * (under spin-assume) on an acquire load of `ready` and then reads all three
 * elements. Hand count: the spawn makes main's writes hb-before the copy; the only
 * nondeterminism is what main's acquire load of `ready` reads. It reads either the
 * initial 0 (that iteration wrote nothing: the spin loop's failed iteration is
 * blocked by spin-assume) or grower's 1 (then the release/acquire pair makes the new
 * block, its contents and the free of the old one hb-before main's reads): 1 complete
 * execution and 1 blocked one with `--disable-ipr`. By default main, whose load of
 * the co-latest `ready` (0) would block it, waits while grower can step, then reads 1;
 * reading the initial 0 after grower's store is a stale block, not explored: 1
 * complete, 0 blocked (as GenMC's in-place revisiting). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

int *data;
atomic_int ready;

void *grower(void *arg)
{
	int *p = realloc(data, 3 * sizeof(int));
	p[2] = p[0] + p[1];
	data = p;
	atomic_store_explicit(&ready, 1, memory_order_release);
	return NULL;
}

int main(void)
{
	pthread_t t;
	data = malloc(2 * sizeof(int));
	data[0] = 1;
	data[1] = 2;
	pthread_create(&t, NULL, grower, NULL);
	while (!atomic_load_explicit(&ready, memory_order_acquire))
		;
	assert(data[0] == 1 && data[1] == 2 && data[2] == 3);
	return 0;
}
// expect rc11 sc: safe 1 blocked 0
// expect rc11 sc | --disable-ipr: safe 1 blocked 1

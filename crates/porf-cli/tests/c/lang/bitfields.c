// Bit-fields (C11 6.7.2.1), laid out as GCC does on x86-64: reads extract the bits
// (sign-extended for `int` fields), writes keep the other fields of the storage unit,
// values wider than the field wrap, and an unsigned field narrower than `int` promotes
// to `int` (so `f.small - 1` is -1). Struct size and `{0}` initialization; a
// bit-field struct in a global and on the heap; a thread writes one field and main
// another field of a *different* run (separate storage units, no race). Joined
// before main reads: one execution.
// expect: safe 1
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct flags {
	unsigned ready : 1;
	unsigned small : 3;
	int neg : 4;
	char tag;
	long id;
	unsigned long wide : 40;
};

struct flags g;

static void *worker(void *arg)
{
	struct flags *f = arg;
	f->wide = 0xABCDEF1234UL;
	return 0;
}

int main(void)
{
	assert(sizeof(struct flags) == 24);
	struct flags f = { 0 };
	f.small = 9; /* 9 mod 8 */
	f.neg = -3;
	f.ready = 1;
	f.tag = 'x';
	assert(f.ready == 1 && f.small == 1 && f.neg == -3 && f.tag == 'x');
	assert(f.small - 2 == -1);
	f.neg = 7;
	f.neg++; /* 8 does not fit: wraps to -8 */
	assert(f.neg == -8 && f.small == 1 && f.ready == 1);
	assert((f.small += 7) == 0 && f.ready == 1);
	g.ready = 1;
	pthread_t t;
	pthread_create(&t, 0, worker, &g);
	g.small = 5;
	pthread_join(t, 0);
	assert(g.wide == 0xABCDEF1234UL && g.small == 5 && g.ready == 1);
	struct flags *h = calloc(1, sizeof *h);
	h->neg = -1;
	assert(h->neg == -1 && h->ready == 0 && h->wide == 0);
	free(h);
	return 0;
}

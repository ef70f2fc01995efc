// `_Atomic` structs of 16 and 8 bytes, one thread: a compare-exchange compares all
// the bytes (a differing second member fails it and writes the current value back to
// `expected`), exchange returns the old value, values survive the round trip through
// global, local (private) and heap objects, signed and unsigned members of every width
// keep their values, and a global initialiser gives the struct's initial value.
// One thread, no choices: 1 complete execution.
// expect: safe 1
#include <assert.h>
#include <stdatomic.h>
#include <stdlib.h>

struct p { long a; long b; };
struct q { int a; short b; signed char c; unsigned char d; };
_Atomic struct p g = { -7, 9 };

int main(void)
{
	struct p w = atomic_load(&g);
	assert(w.a == -7 && w.b == 9);
	_Atomic struct p x;
	struct p v = { -1, 5 };
	atomic_init(&x, v);
	w = atomic_load(&x);
	assert(w.a == -1 && w.b == 5);
	struct p e = { -1, 6 };
	struct p n = { 7, 8 };
	assert(!atomic_compare_exchange_strong(&x, &e, n));
	assert(e.a == -1 && e.b == 5);
	assert(atomic_compare_exchange_weak_explicit(&x, &e, n, memory_order_acq_rel,
						     memory_order_acquire));
	w = atomic_exchange(&x, v);
	assert(w.a == 7 && w.b == 8);
	_Atomic struct p *h = malloc(sizeof *h);
	atomic_store_explicit(h, n, memory_order_release);
	w = atomic_load_explicit(h, memory_order_acquire);
	assert(w.a == 7 && w.b == 8);
	free(h);
	_Atomic struct q y;
	struct q qv = { -3, -2, -1, 255 };
	atomic_store(&y, qv);
	struct q r = atomic_load(&y);
	assert(r.a == -3 && r.b == -2 && r.c == -1 && r.d == 255);
	assert(sizeof(y) == 8 && _Alignof(_Atomic struct p) == 16);
	return 0;
}

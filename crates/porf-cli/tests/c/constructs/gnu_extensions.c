// GNU extensions of kernel-style code: an empty struct has size 0 (gcc), a member of
// that type takes no room (holder is two ints: 8 bytes); __builtin_prefetch is a
// hint without effect; __builtin_memcpy is memcpy; a compare-exchange whose expected
// value is the other signedness of the atomic's type is accepted with a warning and
// compares the same bytes: x = -1 as unsigned is 0xffffffff, so the exchange
// succeeds and x becomes 5. One execution.
// expect rc11 sc: safe 1
// expect-stderr: warning: second argument of `atomic_compare_exchange_strong_explicit` points to `unsigned int`
#include <assert.h>
#include <stdatomic.h>
#include <string.h>

struct key {};
struct holder {
	int a;
	struct key k;
	int b;
};

struct holder h = {1, {}, 2};
atomic_int x = -1;

int main(void)
{
	struct key k;
	int src[2] = {3, 4}, dst[2];
	assert(sizeof(struct key) == 0 && sizeof(struct holder) == 8);
	assert(h.a == 1 && h.b == 2);
	(void)k;
	__builtin_prefetch(&h);
	__builtin_prefetch(&h, 1, 3);
	__builtin_memcpy(dst, src, sizeof src);
	assert(dst[0] == 3 && dst[1] == 4);
	unsigned int e = 0xffffffffu;
	assert(atomic_compare_exchange_strong_explicit(&x, &e, 5, memory_order_relaxed,
						       memory_order_relaxed));
	assert(atomic_load(&x) == 5);
	return 0;
}

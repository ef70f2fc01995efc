/* The <stdatomic.h> operations, in one thread. */
#include <assert.h>
#include <stdatomic.h>
#include <stdbool.h>

atomic_int x = ATOMIC_VAR_INIT(5);
_Atomic(long) big;
atomic_flag flag = ATOMIC_FLAG_INIT;
int plain;
int *_Atomic ptr;

int main(void)
{
	assert(atomic_fetch_add(&x, 2) == 5);
	assert(atomic_fetch_sub_explicit(&x, 1, memory_order_relaxed) == 7);
	assert(atomic_fetch_or(&x, 8) == 6 && atomic_load(&x) == 14);
	assert(atomic_fetch_and(&x, 7) == 14 && atomic_fetch_xor(&x, 1) == 6);
	assert(atomic_exchange_explicit(&x, 42, memory_order_acq_rel) == 7);
	int expected = 41;
	bool ok = atomic_compare_exchange_strong(&x, &expected, 50);
	assert(!ok && expected == 42);
	ok = atomic_compare_exchange_weak_explicit(&x, &expected, 50,
		memory_order_seq_cst, memory_order_relaxed);
	assert(ok && expected == 42 && atomic_load(&x) == 50);
	x++;
	++x;
	x += 3;
	x -= 1;
	assert(x == 54);
	int old = x--;
	assert(old == 54 && x == 53);
	atomic_store_explicit(&big, 1L << 40, memory_order_release);
	assert(atomic_load_explicit(&big, memory_order_acquire) == 1L << 40);
	assert(!atomic_flag_test_and_set(&flag));
	assert(atomic_flag_test_and_set_explicit(&flag, memory_order_acquire));
	atomic_flag_clear(&flag);
	assert(!atomic_flag_test_and_set(&flag));
	atomic_init(&x, 3);
	assert(x == 3);
	atomic_thread_fence(memory_order_seq_cst);
	atomic_signal_fence(memory_order_seq_cst);
	atomic_store(&ptr, &plain);
	*atomic_load(&ptr) = 4;
	assert(plain == 4);
	atomic_int local = 2;
	atomic_fetch_add(&local, 1);
	assert(local == 3);
	return 0;
}

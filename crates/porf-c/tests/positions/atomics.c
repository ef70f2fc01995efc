/* C11 atomics: loads, stores, read-modify-writes, compare-exchange, fences. */
#include <stdatomic.h>

atomic_int x, y;
int z;

int main(void)
{
	/*W*/atomic_store_explicit(&x, 1, memory_order_release);
	int r = /*R*/atomic_load_explicit(&x, memory_order_acquire);
	/*U*/atomic_fetch_add(&y, r);
	int e = 0;
	/*U*/atomic_compare_exchange_strong(&x, &e, 2);
	/*C*/atomic_thread_fence(memory_order_seq_cst);
	/*W*/z = /*R*/x + /*R*/y;
	/*U*/x++;
	/*U*/y += 2;
	return /*R*/z;
}

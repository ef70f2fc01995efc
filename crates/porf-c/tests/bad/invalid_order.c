// expect: error 8:31
#include <stdatomic.h>

atomic_int x;

int main(void)
{
	atomic_store_explicit(&x, 1, memory_order_acquire);
	return 0;
}

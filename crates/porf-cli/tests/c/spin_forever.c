/* Waits for a flag nobody sets: every execution is cut by --unroll. */
#include <stdatomic.h>

atomic_int flag;

int main(void)
{
	while (atomic_load_explicit(&flag, memory_order_acquire) == 0)
		;
	return 0;
}

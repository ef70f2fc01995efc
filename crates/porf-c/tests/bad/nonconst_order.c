// expect: unsupported 9:34
#include <stdatomic.h>

atomic_int x;

int main(void)
{
	memory_order o = memory_order_relaxed;
	return atomic_load_explicit(&x, o);
}

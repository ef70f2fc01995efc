// The atomic library functions on a plain double object are not supported either:
// rejected at the call's first argument.
// expect: rejected "floating-point object"
#include <stdatomic.h>

double d;

int main(void)
{
	atomic_store_explicit(&d, 2.0, memory_order_relaxed);
	return 0;
}

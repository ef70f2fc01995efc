// expect: error 8:9
#include <stdatomic.h>

atomic_int x;

int main(void)
{
	return atomic_load_explicit(&x);
}

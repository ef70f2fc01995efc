// expect: unsupported 8:2
#include <stdatomic.h>

atomic_int x = 1;

int main(void)
{
	x *= 2;
	return 0;
}

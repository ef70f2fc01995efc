// expect: unsupported 6:28
#include <stdlib.h>

int main(void)
{
	void (*release)(void *) = free;
	release(0);
	return 0;
}

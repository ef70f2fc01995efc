// expect: unsupported 6:2
#include <stdlib.h>

int main(void)
{
	exit(1);
}

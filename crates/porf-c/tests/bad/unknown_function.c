// expect: unsupported 8:9
#include <stdlib.h>

char buf[4];

int main(void)
{
	return atoi(buf);
}

// expect: unsupported 8:14
#include <string.h>

char buf[4];

int main(void)
{
	return (int)strlen(buf);
}

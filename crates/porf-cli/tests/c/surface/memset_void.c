// memset through a `void *` gives porf no object type: unsupported.
// expect: rejected "needs the type"
#include <string.h>

int x[2];

int main(void)
{
	void *p = x;
	memset(p, 0, sizeof(x));
	return 0;
}

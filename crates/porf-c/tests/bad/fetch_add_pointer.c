// expect: unsupported 9:2
#include <stdatomic.h>

int data[4];
int *_Atomic cursor = data;

int main(void)
{
	atomic_fetch_add(&cursor, 1);
	return 0;
}

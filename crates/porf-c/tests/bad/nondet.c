// expect: unsupported 6:10
#include <genmc.h>

int main(void)
{
	int x = __VERIFIER_nondet_int();
	return x;
}

// expect: unsupported 7:12
#include <genmc.h>
void *__VERIFIER_nondet_pointer(void);

int main(void)
{
	void *x = __VERIFIER_nondet_pointer();
	return x != 0;
}

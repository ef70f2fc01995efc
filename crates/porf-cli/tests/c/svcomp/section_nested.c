// A section inside a section is an error at the inner opening (SV-COMP's sections do
// not nest): here the call of the second `__VERIFIER_atomic_*` function (16:2).
// expect sc: rejected "nested atomic section"
#include <pthread.h>

int x;

void __VERIFIER_atomic_inner(void)
{
	x = 1;
}

void __VERIFIER_atomic_outer(void)
{
	x = 2;
	__VERIFIER_atomic_inner();
}

int main(void)
{
	__VERIFIER_atomic_outer();
	return 0;
}

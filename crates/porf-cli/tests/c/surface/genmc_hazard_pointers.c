// GenMC's hazard pointers are not modelled: a clear unsupported diagnostic.
// expect: rejected "hazard pointers"
#include <genmc.h>

int main(void)
{
	__VERIFIER_hp_t *hp = __VERIFIER_hp_alloc();
	return hp != 0;
}

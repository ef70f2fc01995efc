// GenMC's optional blocks (`__VERIFIER_optional`) are not modelled: an execution that
// reaches one is an "unsupported" error naming it.
// expect: rejected "`__VERIFIER_optional` (GenMC's optional blocks"
#include <genmc.h>
#include <stdatomic.h>

atomic_int x;

int main(void)
{
	__VERIFIER_optional(atomic_load(&x));
	return 0;
}

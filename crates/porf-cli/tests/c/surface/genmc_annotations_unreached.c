// GenMC annotations in a function no execution calls (hazard pointers, an optional
// block, a final write and a final CAS) have no effect: the program is checked as
// usual, one execution.
// expect rc11 sc: safe 1
#include <genmc.h>
#include <stdatomic.h>

atomic_int x;
_Atomic(int *) shared;

void never_called(void)
{
	__VERIFIER_hp_t *hp = __VERIFIER_hp_alloc();
	int *p = __VERIFIER_hp_protect(hp, &shared);
	__VERIFIER_hp_clear(hp);
	__VERIFIER_hp_retire(p);
	__VERIFIER_hp_free(hp);
	__VERIFIER_optional(atomic_load(&x));
	__VERIFIER_final_write(x = 1);
	int e = 0;
	(void)__VERIFIER_final_CAS(atomic_compare_exchange_strong(&x, &e, 1));
}

int main(void)
{
	x = 3;
	return x != 3;
}

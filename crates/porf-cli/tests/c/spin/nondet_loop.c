// A loop whose only event is a nondeterministic choice: choosing 1 repeats the
// iteration (blocked by spin-assume), choosing 0 ends it. One complete execution, one
// blocked. The blocked iteration is no liveness violation: a re-run may choose 0.
#include <stdbool.h>

bool __VERIFIER_nondet_bool(void);

int main(void)
{
	while (__VERIFIER_nondet_bool())
		;
	return 0;
}

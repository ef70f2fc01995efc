/* A bug only one nondet value reaches: with --nondet-range 0..3, n = 3 overflows
 * the array bound the assertion checks. */
#include <assert.h>

int __VERIFIER_nondet_int(void);

int buf[3];

int main(void)
{
	int n = __VERIFIER_nondet_int();
	assert(n < 3);
	buf[n] = 1;
	return 0;
}
// expect rc11 sc | --nondet-range 0..3: assertion "n < 3"
// expect rc11 sc | --nondet-range 0..2: safe 3
// expect rc11 | --nondet-range 0..3 --explorer reference: assertion "n < 3"

/* One thread, three nondet calls. With --nondet-range 0..2: a in {0, 1, 2}, b in
 * {0, 1} (_Bool), u an unsigned int in the range: {0, 1, 2}. The assume keeps the
 * triples with a != b: of the 3 * 2 = 6 pairs (a, b), (0, 0) and (1, 1) are blocked,
 * so 4 pairs go on, each with 3 values of u: 12 complete, 2 blocked. */
#include <assert.h>
#include <stdbool.h>

int __VERIFIER_nondet_int(void);
bool __VERIFIER_nondet_bool(void);
unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assume(int);

int main(void)
{
	int a = __VERIFIER_nondet_int();
	bool b = __VERIFIER_nondet_bool();
	__VERIFIER_assume(a != b);
	unsigned int u = __VERIFIER_nondet_uint();
	assert(0 <= a && a <= 2);
	assert(u <= 2);
	return 0;
}
// expect rc11 sc | --nondet-range 0..2: safe 12 blocked 2
// expect rc11 | --nondet-range 0..2 --explorer reference: safe 12 blocked 2
// expect rc11 | --nondet-range -1..2: assertion "0 <= a"

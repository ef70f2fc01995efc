// reach_error() and __VERIFIER_error() behind a condition that never holds: no error.
// 1 complete execution (one thread).
// expect sc: safe 1
extern void __VERIFIER_error(void) __attribute__((__noreturn__));
void reach_error() { __VERIFIER_error(); }

int main(void)
{
	int x = 3;
	if (x != 3)
		reach_error();
	if (x == 4)
		__VERIFIER_error();
	return 0;
}

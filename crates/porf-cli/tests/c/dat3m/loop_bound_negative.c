// A negative bound is bad input, reported at the call when it is executed.
// expect rc11: rejected "a loop bound must be at least 0"
// expect-stderr: loop_bound_negative.c:10:2
extern void __VERIFIER_loop_bound(int);

int main(void)
{
	int n = 0;
	int b = -1;
	__VERIFIER_loop_bound(b);
	while (n < 2)
		n++;
	return 0;
}

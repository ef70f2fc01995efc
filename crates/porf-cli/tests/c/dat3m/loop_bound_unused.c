// A hint followed by no loop statement in its function bounds nothing, with a warning
// at the call; the loop in another function is not bounded by it (it runs 5 times).
// expect rc11: safe 1
// expect-stderr: loop_bound_unused.c:17:2: warning: `__VERIFIER_loop_bound` is followed by no loop statement
extern void __VERIFIER_loop_bound(int);

int count(void)
{
	int n = 0;
	while (n < 5)
		n++;
	return n;
}

int main(void)
{
	__VERIFIER_loop_bound(1);
	return count() - 5;
}

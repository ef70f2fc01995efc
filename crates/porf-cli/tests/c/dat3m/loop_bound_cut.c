// `__VERIFIER_loop_bound(3)` bounds the next loop as `--unroll 3` would: the body
// about to start its 4th run blocks the execution. This loop needs 10 runs, so the
// only execution is cut: no complete execution, 1 blocked, 1 cut by the loop bound,
// exit 4 ("up to the bound"), never "no errors".
// expect rc11 sc: incomplete 0 blocked 1 cut 1 by loop
// expect-stderr: __VERIFIER_loop_bound hint
extern void __VERIFIER_loop_bound(int);

int main(void)
{
	int x = 0;
	__VERIFIER_loop_bound(3);
	while (x < 10)
		x++;
	return 0;
}

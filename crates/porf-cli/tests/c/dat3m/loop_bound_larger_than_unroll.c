// With `--unroll 5`, a loop hinted at 2 is cut at its 3rd body start (the smaller
// bound wins); an unhinted loop of 4 runs stays within --unroll 5. Without --unroll
// only the hint cuts. Either way the single execution is cut: exit 4.
// expect rc11 sc: incomplete 0 blocked 1 cut 1 by loop
// expect rc11 | --unroll 5: incomplete 0 blocked 1 cut 1 by loop
extern void __VERIFIER_loop_bound(int);

int main(void)
{
	int n = 0;
	for (int j = 0; j < 4; j++)
		n++;
	__VERIFIER_loop_bound(2);
	while (n < 7)
		n++;
	return n;
}

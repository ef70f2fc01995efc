// A loop written with a backward goto that touches no shared memory: before, --unroll
// did not bound it and the run ended, after 10^7 local steps, in "unsupported: no
// progress". Every cycle of the control flow counts against the bound: label L may
// start N times, so its (N+1)th start (the N-th backward jump) blocks the only
// execution, which is cut by the bound: incomplete (exit 4), 0 complete, 1 blocked,
// 1 cut, under every model (the program has no event but main's start and block).
// expect sc tso pso ra rc11 rc11-genmc wra sra | --unroll 3: incomplete 0 blocked 1 cut 1 by loop
// expect sc rc11 | --unroll 1: incomplete 0 blocked 1 cut 1 by loop
// expect-stderr: --unroll
int main(void)
{
	int i = 0;
L:
	i++;
	goto L;
}

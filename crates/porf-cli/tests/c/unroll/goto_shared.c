// A goto loop whose body is a shared access: before, --unroll did not bound it and
// the single execution grew without end (the run never finished). L starts at most
// 3 times under --unroll 3: three fetch-adds, then the backward jump blocks. One
// execution (main alone, nothing to choose), cut by the bound, under every model.
// args: --unroll 3
// expect sc tso pso ra rc11 rc11-genmc wra sra: incomplete 0 blocked 1 cut 1 by loop
#include <stdatomic.h>

atomic_int x;

int main(void)
{
L:
	atomic_fetch_add(&x, 1);
	goto L;
}

// GCC's __sync/__atomic fetch-ops on a pointer operate "as if the
// operands were of the uintptr_t type" (GCC's manual, "__atomic Builtins"): adding 4
// to an `int *` moves it 4 bytes, not 4 ints (as a gcc-compiled program does),
// and a pointer operand is added as an integer (Concurrency Kit's ck_pr_faa_ptr).
// clang's __sync_fetch_and_{max,min,umax,umin} compare signed or unsigned at the
// location's width whatever its type: an int -1 is the largest as unsigned (GenMC's
// test correct/infr/atomic-ops). One thread: one execution.
// expect rc11 sc: safe 1
#include <assert.h>

int a[4];
int *p = a;
void *q;
int x = -1;
unsigned u = 0xffffffffu;

int main(void)
{
	int *old = __sync_fetch_and_add(&p, 4);
	assert(old == a && (char *)p == (char *)a + 4);
	assert(__sync_sub_and_fetch(&p, 4) == a);
	assert(__atomic_fetch_add(&p, 8, __ATOMIC_RELAXED) == a && (char *)p == (char *)a + 8);
	__sync_fetch_and_add(&q, (void *)16);
	assert((long)q == 16);
	assert(__sync_fetch_and_umax(&x, 42) == -1 && x == -1);
	assert(__sync_fetch_and_max(&x, 42) == -1 && x == 42);
	assert(__sync_fetch_and_min(&x, -7) == 42 && x == -7);
	assert(__sync_fetch_and_umin(&x, 3) == -7 && x == 3);
	assert(__sync_fetch_and_max(&u, 5) == 0xffffffffu && u == 5);
	assert(__atomic_fetch_umax(&u, 9, __ATOMIC_SEQ_CST) == 5 && u == 9);
	return 0;
}

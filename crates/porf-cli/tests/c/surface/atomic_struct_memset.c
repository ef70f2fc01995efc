// memset of a struct holding an `_Atomic` struct of 16 bytes: the atomic member is one
// cell, and zero bytes are its code 0 (porf-c's wide.rs), so the atomic load after it
// reads {0, 0}. One thread: 1 complete execution.
// expect: safe 1
#include <assert.h>
#include <stdatomic.h>
#include <string.h>
struct p { long a; long b; };
struct h { int n; _Atomic struct p x; };
struct h g = { 1, { 3, 4 } };
int main(void)
{
	memset(&g, 0, sizeof g);
	struct p v = atomic_load(&g.x);
	assert(v.a == 0 && v.b == 0 && g.n == 0);
	return 0;
}

// Dat3M's Linux-kernel memory model intrinsics (`__LKMM_*`, its lkmm.h) have no model
// in porf: a call is refused where an execution reaches it, and only there (the one
// in `unused` is never called).
// expect rc11: rejected "porf has no model of the LKMM"
// expect-stderr: lkmm_refused.c:18:2
extern void __LKMM_fence(int);
extern void __LKMM_store(volatile void *, unsigned long, long, int);

int x;

void unused(void)
{
	__LKMM_fence(3);
}

int main(void)
{
	__LKMM_store(&x, sizeof(x), 1, 0);
	return 0;
}

// A write after a final write, even in the same thread, is an annotation error: it
// does not happen before the final write. By hand: one thread, x = 1 (final), x = 2.
// expect: assertion "annotation error"
#include <genmc.h>
#include <stdatomic.h>

atomic_int x;

int main(void)
{
	__VERIFIER_final_write(atomic_store(&x, 1));
	atomic_store(&x, 2);
	return 0;
}

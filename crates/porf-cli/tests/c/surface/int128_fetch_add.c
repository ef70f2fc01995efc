// The engine's arithmetic read-modify-writes compute on 64-bit values, so an atomic
// fetch-and-add on a 128-bit object is refused where reached (exit 3).
// expect: rejected "on a 128-bit object is not supported"
#include <stdatomic.h>

_Atomic unsigned __int128 a;

int main(void)
{
	atomic_fetch_add(&a, 1);
	return 0;
}

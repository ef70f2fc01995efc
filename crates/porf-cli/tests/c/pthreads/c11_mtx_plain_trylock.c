// mtx_plain is not recursive: mtx_trylock of a held mutex returns thrd_busy; one
// thread, 1 complete execution.
// expect rc11 sc: safe 1
#include <assert.h>
#include <threads.h>

mtx_t m;

int main(void)
{
	mtx_init(&m, mtx_plain);
	assert(mtx_trylock(&m) == thrd_success);
	assert(mtx_trylock(&m) == thrd_busy);
	mtx_unlock(&m);
	return 0;
}

// <threads.h>: a recursive mtx_t, a cnd_t hand-off and thrd_join's result. As in
// cond_handoff.c, the mutex orders main's first critical section and the worker's:
// 2 complete executions.
// expect rc11 sc: safe 2
#include <assert.h>
#include <threads.h>

mtx_t m;
cnd_t c;
int ready;

static int worker(void *arg)
{
	assert(mtx_lock(&m) == thrd_success);
	assert(mtx_lock(&m) == thrd_success);
	ready = 1;
	cnd_signal(&c);
	mtx_unlock(&m);
	mtx_unlock(&m);
	return 7;
}

int main(void)
{
	assert(mtx_init(&m, mtx_plain | mtx_recursive) == thrd_success);
	assert(cnd_init(&c) == thrd_success);
	thrd_t t;
	assert(thrd_create(&t, worker, 0) == thrd_success);
	mtx_lock(&m);
	while (!ready)
		cnd_wait(&c, &m);
	mtx_unlock(&m);
	int r = 0;
	assert(thrd_join(t, &r) == thrd_success);
	assert(r == 7);
	assert(thrd_equal(thrd_current(), thrd_current()));
	mtx_destroy(&m);
	cnd_destroy(&c);
	return 0;
}

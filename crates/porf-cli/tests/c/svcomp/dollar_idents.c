// `$` in identifiers (a GNU C extension gcc accepts by default; SV-COMP's
// pthread-wmm tasks name their buffer variables `x$w_buff0`, `main$tmp_guard0`).
// Two threads increment `x$count` under the mutex `m$`: the two orders of the
// critical sections are the 2 complete executions, and `x$count` ends at 2.
// expect rc11 sc: safe 2
#include <assert.h>
#include <pthread.h>

int x$count;
_Bool main$guard;
pthread_mutex_t m$ = PTHREAD_MUTEX_INITIALIZER;

void *t$fun(void *arg)
{
	pthread_mutex_lock(&m$);
	x$count = x$count + 1;
	pthread_mutex_unlock(&m$);
	return 0;
}

int main(void)
{
	pthread_t t1, t2;
	pthread_create(&t1, 0, t$fun, 0);
	pthread_create(&t2, 0, t$fun, 0);
	pthread_join(t1, 0);
	pthread_join(t2, 0);
	main$guard = x$count == 2;
	assert(main$guard);
	return 0;
}

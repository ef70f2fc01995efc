/* exit in main's thread, from a nested call, after the join: main finishes with
 * code 3, which is not an error; the assertion after the call is never reached.
 * Two threads with one relaxed store each and no reads: 1 complete execution. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

atomic_int x;

void *worker(void *arg)
{
	atomic_store_explicit(&x, 1, memory_order_relaxed);
	return NULL;
}

void leave(int code)
{
	exit(code);
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	leave(3);
	assert(0);
	return 0;
}
// expect rc11 sc: safe 1

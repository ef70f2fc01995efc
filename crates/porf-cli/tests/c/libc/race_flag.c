/* A non-atomic race on x, then an assertion main can fail.
 * The writer stores x = 1; main reads x (from the initialisation or the store, 2
 * executions under rc11 and sc), then asserts r == 0 || r == 1, which always holds,
 * and asserts y == 0 on an atomic y nobody writes.
 * Default: the race is reported (exit 42). With --disable-race-detection: no error,
 * 2 complete executions. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

int x;
atomic_int y;

void *writer(void *arg)
{
	x = 1;
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, writer, NULL);
	int r = x;
	assert(r == 0 || r == 1);
	assert(atomic_load(&y) == 0);
	pthread_join(t, NULL);
	return 0;
}
// expect rc11 sc: race
// expect rc11 sc | --disable-race-detection: safe 2
// expect sc | --disable-race-detection --equiv rvf: safe 2
// expect rc11 | --disable-race-detection --explorer reference: safe 2

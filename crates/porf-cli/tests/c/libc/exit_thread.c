/* exit in a thread other than main's ends that thread (GenMC 0.11's exit pops the
 * caller's frames; the process-wide end is not modelled): the rest of the thread does
 * not run, a joiner gets NULL, and the other threads run on, as after main's return.
 * So x is 1 after the join, never 2: one execution. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

int x;

void *worker(void *arg)
{
	x = 1;
	exit(1);
	x = 2;
	return arg;
}

int main(void)
{
	pthread_t t;
	void *r = &x;
	pthread_create(&t, NULL, worker, &x);
	pthread_join(t, &r);
	assert(x == 1 && r == NULL);
	return 0;
}
// expect rc11 sc: safe 1

// pthread_once runs the routine once, and both callers return after it (they see
// its write). The once object's mutex orders the two calls: 2 complete executions.
// expect rc11 sc: safe 2
#include <assert.h>
#include <pthread.h>

pthread_once_t once = PTHREAD_ONCE_INIT;
int runs, value;

static void init(void)
{
	runs++;
	value = 42;
}

static void *worker(void *arg)
{
	pthread_once(&once, init);
	assert(value == 42);
	return 0;
}

int main(void)
{
	pthread_t t1, t2;
	pthread_create(&t1, 0, worker, 0);
	pthread_create(&t2, 0, worker, 0);
	pthread_join(t1, 0);
	pthread_join(t2, 0);
	assert(runs == 1);
	return 0;
}

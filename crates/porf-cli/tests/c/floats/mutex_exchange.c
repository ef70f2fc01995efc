// Two threads exchange a double through a mutex-protected global. The producer
// triples it (0.5 * 3.0 = 1.5, exact in binary64); main reads it inside its own
// critical section, so it sees 0.5 (its section first) or 1.5 (the producer's first),
// and after the join always 1.5. The two lock orders are the two executions; every
// assertion holds in both. The comparisons are exact because 0.5, 1.5 and 3.0 are
// dyadic rationals.
// expect: safe 2
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
double shared = 0.5;

void *producer(void *arg)
{
	pthread_mutex_lock(&m);
	shared = shared * 3.0;
	pthread_mutex_unlock(&m);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, producer, 0);
	pthread_mutex_lock(&m);
	double seen = shared;
	pthread_mutex_unlock(&m);
	pthread_join(t, 0);
	assert(seen == 0.5 || seen == 1.5);
	assert(seen < 2 && seen > 0.25f);
	assert(shared == 1.5 && shared >= seen && !(shared != 1.5));
	return 0;
}

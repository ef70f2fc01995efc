// A fetch_sub given back by a fetch_add, retried while `stop` is unset. The
// peeker's fetch_add may read the -1 in between (under every model), and the
// spinner then sees `stop` and ends, so the assertion fails. A rule that keeps a
// spinner blocked after a cancelling iteration while only other threads' RMWs read
// its intermediate value (GenMC's FAI ZNE condition) misses this run.
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>

atomic_int x, stop;
int seen;

void *spinner(void *arg)
{
	while (!atomic_load(&stop)) {
		atomic_fetch_sub(&x, 1);
		atomic_fetch_add(&x, 1);
	}
	return 0;
}

void *peeker(void *arg)
{
	if (atomic_fetch_add(&x, 10) == -1)
		seen = 1;
	return 0;
}

void *stopper(void *arg)
{
	atomic_store(&stop, 1);
	return 0;
}

int main(void)
{
	pthread_t a, b, c;
	pthread_create(&a, 0, spinner, 0);
	pthread_create(&b, 0, peeker, 0);
	pthread_create(&c, 0, stopper, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	pthread_join(c, 0);
	assert(!seen);
	return 0;
}

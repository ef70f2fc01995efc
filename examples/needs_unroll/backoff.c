// A wait loop that counts its spins: every iteration changes `spins`, which is live at
// the loop's head, so no iteration leaves the thread as it was and spin-assume never
// blocks it. Without --unroll the execution where the flag is never seen grows until
// --max-events-per-execution stops the run; with --unroll N it is cut at N iterations.
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag;

void *setter(void *arg)
{
	atomic_store(&flag, 1);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, setter, 0);
	int spins = 0;
	while (!atomic_load(&flag))
		spins++;
	pthread_join(t, 0);
	return spins < 0;
}

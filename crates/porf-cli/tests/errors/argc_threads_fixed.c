// Fixed argc_threads.c: an atomic counter.
// porf-expect sc tso ra rc11: safe
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int counter;

void *worker(void *arg)
{
	atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[4];
	int n = argc + 1;
	for (int i = 0; i < n && i < 4; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < n && i < 4; i++)
		pthread_join(t[i], NULL);
	assert(atomic_load(&counter) == 2);
	return 0;
}

// Fixed double_free_threads.c: an atomic exchange elects the one thread that frees.
// porf-expect sc tso ra rc11: safe
#include <stdlib.h>
#include <pthread.h>
#include <stdatomic.h>

int *shared;
atomic_int claimed;

void *worker(void *arg)
{
	if (atomic_exchange(&claimed, 1) == 0)
		free(shared);
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;
	shared = malloc(sizeof(int));
	pthread_create(&t1, NULL, worker, NULL);
	pthread_create(&t2, NULL, worker, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	return 0;
}

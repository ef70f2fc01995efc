// Two threads both free a shared block: a double free whatever the order (and never
// a data race: free is not an access).
// porf-expect sc tso ra rc11: memory "double free"
#include <stdlib.h>
#include <pthread.h>

int *shared;

void *worker(void *arg)
{
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

// Fixed free_join_use.c: main reads the block before the thread frees it.
// porf-expect sc tso ra rc11: safe
#include <stdlib.h>
#include <pthread.h>

int *g;
int seen;

void *worker(void *arg)
{
	free(g);
	return NULL;
}

int main(void)
{
	pthread_t t;
	g = malloc(sizeof(int));
	*g = 1;
	seen = *g;
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	return seen;
}

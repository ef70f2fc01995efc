// A thread frees a block main allocated; main joins it and reads the block.
// porf-expect sc tso ra rc11: memory "access to freed memory"
#include <stdlib.h>
#include <pthread.h>

int *g;

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
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	return *g;
}

// Fixed free_while_reading.c: the block is freed only after the reader is joined.
// porf-expect sc tso ra rc11: safe
#include <stdlib.h>
#include <pthread.h>
#include <stdatomic.h>

int *data;
atomic_int sum;

void *reader(void *arg)
{
	atomic_fetch_add(&sum, *data);
	return NULL;
}

int main(void)
{
	pthread_t t1;
	data = malloc(sizeof(int));
	*data = 5;
	pthread_create(&t1, NULL, reader, NULL);
	pthread_join(t1, NULL);
	free(data);
	return 0;
}

// One thread frees a block while another may still read it: the read is unordered
// with the free (or after it), under every model.
// porf-expect sc tso ra rc11: memory "access to freed memory"
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

void *freer(void *arg)
{
	free(data);
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;
	data = malloc(sizeof(int));
	*data = 5;
	pthread_create(&t1, NULL, reader, NULL);
	pthread_create(&t2, NULL, freer, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	return 0;
}

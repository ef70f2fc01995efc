// Fixed foreign_out_of_bounds.c: the block holds two ints.
// porf-expect sc tso ra rc11: safe
#include <stdlib.h>
#include <pthread.h>
#include <stdatomic.h>

_Atomic(int *) p;

void *producer(void *arg)
{
	atomic_store_explicit(&p, malloc(2 * sizeof(int)), memory_order_release);
	return NULL;
}

void *consumer(void *arg)
{
	int *q = atomic_load_explicit(&p, memory_order_acquire);
	if (q)
		q[1] = 7;
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;
	pthread_create(&t1, NULL, producer, NULL);
	pthread_create(&t2, NULL, consumer, NULL);
	return 0;
}

// A block published with a relaxed store: the reader's malloc need not happen before
// its access under C11 (RA keeps relaxed accesses relaxed, as GenMC's RA does).
// porf-expect ra rc11: memory "access to non-allocated memory"
// porf-expect sc tso: safe
#include <stdlib.h>
#include <pthread.h>
#include <stdatomic.h>

_Atomic(int *) p;

void *producer(void *arg)
{
	int *q = malloc(sizeof(int));
	atomic_store_explicit(&p, q, memory_order_relaxed);
	return NULL;
}

void *consumer(void *arg)
{
	int *q = atomic_load_explicit(&p, memory_order_relaxed);
	if (q)
		*q = 7;
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;
	pthread_create(&t1, NULL, producer, NULL);
	pthread_create(&t2, NULL, consumer, NULL);
	return 0;
}

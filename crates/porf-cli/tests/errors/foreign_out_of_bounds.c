// A thread writes past the end of a block another thread allocated (6 bytes, so the
// second int reaches beyond it).
// porf-expect sc tso ra rc11: memory "out-of-bounds heap access"
#include <stdlib.h>
#include <pthread.h>
#include <stdatomic.h>

_Atomic(int *) p;

void *producer(void *arg)
{
	atomic_store_explicit(&p, malloc(6), memory_order_release);
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

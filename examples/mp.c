/* Message passing: the consumer sees the payload once it sees the flag, because
 * the flag is written with release and read with acquire. Safe under every model;
 * try --model rc11 after weakening both orders to memory_order_relaxed. */
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>
#include <stdbool.h>

int payload;
atomic_bool ready;

void *producer(void *arg)
{
	payload = 42;
	atomic_store_explicit(&ready, true, memory_order_release);
	return NULL;
}

void *consumer(void *arg)
{
	if (atomic_load_explicit(&ready, memory_order_acquire))
		assert(payload == 42);
	return NULL;
}

int main(void)
{
	pthread_t p, c;
	pthread_create(&p, NULL, producer, NULL);
	pthread_create(&c, NULL, consumer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	return 0;
}

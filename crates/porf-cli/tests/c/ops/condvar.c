/* A hand-off through a condition variable; the consumer checks a value the producer
 * never promised (data is written after the signal), so some executions fail: the
 * witness shows cond_wait, the signal that woke it, and the re-lock. */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready, data;

void *producer(void *arg)
{
	pthread_mutex_lock(&m);
	ready = 1;
	pthread_cond_signal(&c);
	pthread_mutex_unlock(&m);
	data = 1;
	return 0;
}

void *consumer(void *arg)
{
	pthread_mutex_lock(&m);
	while (!ready)
		pthread_cond_wait(&c, &m);
	pthread_mutex_unlock(&m);
	assert(data == 1);
	return 0;
}

int main(void)
{
	pthread_t p, q;
	pthread_create(&q, 0, consumer, 0);
	pthread_create(&p, 0, producer, 0);
	pthread_join(p, 0);
	pthread_join(q, 0);
	return 0;
}

/* Message passing through a spin-wait: the reader waits for the flag with an acquire
 * load, so it must see the data. */
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>

int data;
atomic_int flag;

void *writer(void *arg)
{
	data = 1;
	atomic_store_explicit(&flag, 1, memory_order_release);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, writer, NULL);
	while (!atomic_load_explicit(&flag, memory_order_acquire))
		;
	assert(data == 1);
	pthread_join(t, NULL);
	return 0;
}

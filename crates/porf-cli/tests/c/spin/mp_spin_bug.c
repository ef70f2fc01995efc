/* Message passing through a spin-wait with relaxed accesses only: the reader may see
 * the flag and still read the old data. */
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>

atomic_int data;
atomic_int flag;

void *writer(void *arg)
{
	atomic_store_explicit(&data, 1, memory_order_relaxed);
	atomic_store_explicit(&flag, 1, memory_order_relaxed);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, writer, NULL);
	while (!atomic_load_explicit(&flag, memory_order_relaxed))
		;
	assert(atomic_load_explicit(&data, memory_order_relaxed) == 1);
	pthread_join(t, NULL);
	return 0;
}

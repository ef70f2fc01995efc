/* A spin loop that waits for a flag: unbounded without --unroll. */
#include <stdatomic.h>
#include <pthread.h>

atomic_int flag;

void *waiter(void *arg)
{
	while (atomic_load_explicit(&flag, memory_order_acquire) == 0)
		;
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, waiter, NULL);
	atomic_store_explicit(&flag, 1, memory_order_release);
	pthread_join(t, NULL);
	return 0;
}

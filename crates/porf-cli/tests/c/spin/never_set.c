/* A spin-wait on a flag nobody sets: the waiter spins forever. */
#include <stdatomic.h>
#include <pthread.h>

atomic_int flag, other;

void *busy(void *arg)
{
	atomic_store_explicit(&other, 1, memory_order_release);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, busy, NULL);
	while (!atomic_load_explicit(&flag, memory_order_acquire))
		;
	return 0;
}

/* A waiter spins on a flag nobody sets and main joins it: the only execution blocks
 * with the waiter reading the initial 0, the co-latest (and only) write of flag, and
 * main waiting for the join. The program never ends. */
#include <stdatomic.h>
#include <pthread.h>

atomic_int flag;

void *waiter(void *arg)
{
	while (!atomic_load_explicit(&flag, memory_order_acquire))
		;
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, waiter, NULL);
	pthread_join(t, NULL);
	return 0;
}

// A worker that increments a counter forever: every execution keeps growing.
#include <pthread.h>
#include <stdatomic.h>

atomic_int n;

void *counter(void *arg)
{
	for (;;)
		atomic_fetch_add_explicit(&n, 1, memory_order_relaxed);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, counter, 0);
	return 0;
}

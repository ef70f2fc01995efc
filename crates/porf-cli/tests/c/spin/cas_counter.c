/* N threads increment a counter with a compare-exchange retry loop; the value read
 * before the loop is the first expected value, a failed attempt refreshes it. */
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>

#ifndef N
#define N 3
#endif

atomic_int counter;

void *inc(void *arg)
{
	int old = atomic_load_explicit(&counter, memory_order_relaxed);
	while (!atomic_compare_exchange_strong_explicit(&counter, &old, old + 1,
			memory_order_relaxed, memory_order_relaxed))
		;
	return NULL;
}

int main(void)
{
	pthread_t t[N];
	for (int i = 0; i < N; i++)
		pthread_create(&t[i], NULL, inc, NULL);
	for (int i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	assert(atomic_load_explicit(&counter, memory_order_relaxed) == N);
	return 0;
}

/* Loops that must not be assumed to exit. The waiter's loop writes shared memory in
 * its body (every iteration counts itself in `polls`); the counter's loop changes a
 * local that lives past it. Either assertion fails only after two failed iterations. */
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>

atomic_int flag, polls;

void *setter(void *arg)
{
	atomic_store_explicit(&flag, 1, memory_order_relaxed);
	return NULL;
}

void *waiter(void *arg)
{
	while (!atomic_load_explicit(&flag, memory_order_relaxed))
		atomic_fetch_add_explicit(&polls, 1, memory_order_relaxed);
	assert(atomic_load_explicit(&polls, memory_order_relaxed) < 2);
	return NULL;
}

void *counter(void *arg)
{
	int n = 0;
	while (!atomic_load_explicit(&flag, memory_order_relaxed))
		n++;
	assert(n < 2);
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, setter, NULL);
#ifdef COUNTER
	pthread_create(&b, NULL, counter, NULL);
#else
	pthread_create(&b, NULL, waiter, NULL);
#endif
	return 0;
}

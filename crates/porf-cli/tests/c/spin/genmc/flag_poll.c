/* After GenMC v0.11 tests/correct/saver/spin+phi-header: one thread stores 1..42 to x
 * in order, the other polls x into a local until it is nonzero. */
#include <stdatomic.h>
#include <pthread.h>

atomic_int x;

void *count(void *arg)
{
	for (int i = 1; i <= 42; i++)
		atomic_store_explicit(&x, i, memory_order_relaxed);
	return NULL;
}

void *poll(void *arg)
{
	int got = 0;
	while (!got)
		got = x;
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, count, NULL);
	pthread_create(&b, NULL, poll, NULL);
	return 0;
}

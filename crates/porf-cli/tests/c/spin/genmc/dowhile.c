/* After GenMC v0.11 tests/correct/saver/spin-dowhile1: a do-while loop that leaves
 * early when x is 42 and repeats while x is not 0; x goes 1, 2, ..., 42. */
#include <stdatomic.h>
#include <pthread.h>

atomic_int x;

void *waiter(void *arg)
{
	do {
		if (atomic_load_explicit(&x, memory_order_acquire) == 42)
			break;
	} while (atomic_load_explicit(&x, memory_order_relaxed) != 0);
	return NULL;
}

void *count(void *arg)
{
	for (int i = 1; i <= 42; i++)
		atomic_store_explicit(&x, i, memory_order_relaxed);
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, waiter, NULL);
	pthread_create(&b, NULL, count, NULL);
	return 0;
}

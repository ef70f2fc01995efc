/* After GenMC v0.11 tests/correct/saver/spin-cas-res: a loop whose body, on either
 * branch, tries a compare-exchange from 0 or from 1 to 42 and leaves on success;
 * the other thread stores 0..41. */
#include <stdatomic.h>
#include <pthread.h>

atomic_int x;

void *try42(void *arg)
{
	int done = 0;
	while (!done) {
		int zero = 0;
		int one = 1;
		if (x == 42)
			done = atomic_compare_exchange_strong(&x, &zero, 42);
		else
			done = atomic_compare_exchange_strong(&x, &one, 42);
	}
	return NULL;
}

void *writer(void *arg)
{
	for (int i = 0; i < 42; i++)
		x = i;
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, try42, NULL);
	pthread_create(&b, NULL, writer, NULL);
	return 0;
}

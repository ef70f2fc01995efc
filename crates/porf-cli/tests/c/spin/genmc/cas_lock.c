/* After GenMC v0.11 tests/correct/saver/spin-cas3: N threads take a CAS lock (the
 * expected value is reset to 0 after each failed attempt) and release it. */
#include <stdatomic.h>
#include <pthread.h>

#ifndef N
#define N 3
#endif

atomic_int lock;

void *critical(void *arg)
{
	int expected = 0;
	while (!atomic_compare_exchange_strong(&lock, &expected, 1))
		expected = 0;
	lock = 0;
	return NULL;
}

int main(void)
{
	pthread_t t[N];
	for (int i = 0; i < N; i++)
		pthread_create(&t[i], NULL, critical, NULL);
	return 0;
}

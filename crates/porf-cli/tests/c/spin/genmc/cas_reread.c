/* After GenMC v0.11 tests/correct/saver/spin-cas2: three threads read x, then retry a
 * compare-exchange of x to 42 with the value read (a failed attempt refreshes it);
 * a fourth thread writes 1. */
#include <stdatomic.h>
#include <pthread.h>

atomic_int x;

void *grab(void *arg)
{
	int seen = x;
	while (!atomic_compare_exchange_strong(&x, &seen, 42))
		;
	return NULL;
}

void *one(void *arg)
{
	x = 1;
	return NULL;
}

int main(void)
{
	pthread_t t[4];
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, grab, NULL);
	pthread_create(&t[3], NULL, one, NULL);
	return 0;
}

/* Two workers take a compare-exchange spinlock and neither releases it. The first
 * compare-exchange to read 0 wins; the other's can only read the winner's 1 (two
 * successful RMWs cannot read the same write), the co-latest write of lock, fails, and
 * the iteration resets `expected`: it spins forever while main waits to join it. Two
 * executions (either worker wins), each with one worker spinning forever and none
 * complete. */
#include <stdatomic.h>
#include <pthread.h>

atomic_int lock;
int owner;

void *worker(void *arg)
{
	int expected = 0;
	while (!atomic_compare_exchange_strong(&lock, &expected, 1))
		expected = 0;
	owner = 1;
	/* the unlock, atomic_store(&lock, 0), is missing */
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}

// Fixed relock.c: the helper expects the lock to be held.
// porf-expect sc tso ra rc11: safe
#include <pthread.h>

pthread_mutex_t m;
int balance;

void deposit_locked(int v)
{
	balance += v;
}

void *worker(void *arg)
{
	pthread_mutex_lock(&m);
	if (balance == 0)
		deposit_locked(10);
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;
	pthread_create(&t1, NULL, worker, NULL);
	pthread_create(&t2, NULL, worker, NULL);
	return 0;
}

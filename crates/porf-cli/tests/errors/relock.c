// A helper called with the lock held takes the lock again: the thread waits for itself
// (pthread mutexes are not recursive).
// porf-expect sc tso ra rc11: deadlock "re-locks a mutex"
#include <pthread.h>

pthread_mutex_t m;
int balance;

void deposit(int v)
{
	pthread_mutex_lock(&m);
	balance += v;
	pthread_mutex_unlock(&m);
}

void *worker(void *arg)
{
	pthread_mutex_lock(&m);
	if (balance == 0)
		deposit(10);
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

// Fixed unlock_never_locked.c.
// porf-expect sc tso ra rc11: safe
#include <pthread.h>

pthread_mutex_t m;
int counter;

void *worker(void *arg)
{
	pthread_mutex_lock(&m);
	counter++;
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_mutex_init(&m, NULL);
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	return 0;
}

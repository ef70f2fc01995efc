// A thread unlocks a mutex it never locked.
// porf-expect sc tso ra rc11: lock "invalid unlock"
#include <pthread.h>

pthread_mutex_t m;
int counter;

void *worker(void *arg)
{
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

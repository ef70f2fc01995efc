// A semaphore used as a mutex by one thread only: the other increments the counter
// without taking it, a data race on `counter`.
// expect rc11 sc: race
#include <pthread.h>
#include <semaphore.h>

sem_t lock;
int counter;

static void *careful(void *arg)
{
	sem_wait(&lock);
	counter++;
	sem_post(&lock);
	return NULL;
}

static void *careless(void *arg)
{
	counter++;
	return NULL;
}

int main(void)
{
	sem_init(&lock, 0, 1);
	pthread_t a, b;
	pthread_create(&a, NULL, careful, NULL);
	pthread_create(&b, NULL, careless, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}

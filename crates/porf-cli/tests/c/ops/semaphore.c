/* A semaphore hands one unit from a poster to a waiter; trywait on the empty
 * semaphore fails, which the program does not expect. */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

sem_t s;
int x;

void *poster(void *arg)
{
	x = 1;
	sem_post(&s);
	return 0;
}

void *waiter(void *arg)
{
	sem_wait(&s);
	assert(x == 1);
	int r = sem_trywait(&s);
	assert(r == 0);
	return 0;
}

int main(void)
{
	pthread_t a, b;
	sem_init(&s, 0, 0);
	pthread_create(&a, 0, poster, 0);
	pthread_create(&b, 0, waiter, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}

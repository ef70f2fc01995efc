// Two consumers wait on a semaphore that gets one post: one of them waits for good,
// and main waits to join it: every execution is a deadlock (POSIX: sem_wait blocks
// until the count is above zero).
// expect rc11 sc: deadlock
#include <pthread.h>
#include <semaphore.h>

sem_t s;

static void *consumer(void *arg)
{
	sem_wait(&s);
	return NULL;
}

int main(void)
{
	sem_init(&s, 0, 0);
	pthread_t a, b;
	pthread_create(&a, NULL, consumer, NULL);
	pthread_create(&b, NULL, consumer, NULL);
	sem_post(&s);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}

// <semaphore.h>: a post happens-before the wait that takes its unit (POSIX 4.12:
// sem_post and sem_wait synchronise memory), so the consumer reads the producer's
// non-atomic data without a race. One complete execution: the wait can only return
// by taking the producer's unit (the waits that read the initial count 0 wait for
// that post).
// expect rc11 sc: safe 1
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

sem_t ready;
int data;

static void *producer(void *arg)
{
	data = 42;
	sem_post(&ready);
	return NULL;
}

int main(void)
{
	sem_init(&ready, 0, 0);
	pthread_t t;
	pthread_create(&t, NULL, producer, NULL);
	sem_wait(&ready);
	assert(data == 42);
	int v;
	sem_getvalue(&ready, &v);
	assert(v == 0);
	assert(sem_trywait(&ready) == -1);
	pthread_join(t, NULL);
	sem_destroy(&ready);
	return 0;
}

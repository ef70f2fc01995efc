/* Threads, mutexes, the heap, and library calls reported at the user's call. */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
sem_t s;
int g, *p;

void *worker(void *arg)
{
	/*L*/pthread_mutex_lock(&m);
	/*W*/g = 1;
	/*N*/pthread_mutex_unlock(&m);
	/*U*/sem_post(&s);
	return 0;
}

int main(void)
{
	pthread_t t;
	/*W*/sem_init(&s, 0, 0);
	/*S*/pthread_create(&t, 0, worker, 0);
	int r = /*R*/g;
	/*U*/sem_wait(&s);
	/*J*/pthread_join(t, 0);
	assert(/*R*/g == 1);
	/*W*/p = /*M*/malloc(sizeof(int));
	/*W*/*/*R*/p = /*R*/g;
	/*F*/free(/*R*/p);
	return r;
}

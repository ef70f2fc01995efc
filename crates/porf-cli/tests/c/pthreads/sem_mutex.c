// A semaphore of count 1 as a mutex: two threads each take it, increment a plain
// counter and give it back. The critical sections are ordered either way: 2 complete
// executions (a wait that reads 0 waits for the other's post); no race, and the
// counter ends at 2.
// expect rc11 sc: safe 2
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

sem_t lock;
int counter;

static void *worker(void *arg)
{
	sem_wait(&lock);
	counter++;
	sem_post(&lock);
	return NULL;
}

int main(void)
{
	sem_init(&lock, 0, 1);
	pthread_t a, b;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(counter == 2);
	return 0;
}

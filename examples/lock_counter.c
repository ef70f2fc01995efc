/* N threads increment a shared counter under a pthread mutex; the main thread checks
 * the total after joining them. Build with -D N=4 for 24 executions. */
#include <pthread.h>
#include <assert.h>

#ifndef N
#define N 3
#endif

pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int counter;

void *work(void *arg)
{
	pthread_mutex_lock(&lock);
	counter++;
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	pthread_t t[N];
	for (int i = 0; i < N; i++)
		pthread_create(&t[i], NULL, work, NULL);
	for (int i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	assert(counter == N);
	return 0;
}

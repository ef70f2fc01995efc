// Two threads wait on one condition variable and main signals twice: which waiter a
// signal wakes is a choice, which rf-smc and --equiv rvf do not explore (they refuse
// it by name).
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;

void *waiter(void *arg)
{
	pthread_mutex_lock(&m);
	while (ready == 0)
		pthread_cond_wait(&c, &m);
	ready--;
	pthread_mutex_unlock(&m);
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, waiter, 0);
	pthread_create(&b, 0, waiter, 0);
	pthread_mutex_lock(&m);
	ready = 2;
	pthread_cond_signal(&c);
	pthread_cond_signal(&c);
	pthread_mutex_unlock(&m);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}

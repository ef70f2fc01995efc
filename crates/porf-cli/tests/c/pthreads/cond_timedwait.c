// pthread_cond_timedwait is not supported: a clear error, not a wrong answer.
// expect rc11 sc: rejected "pthread_cond_timedwait"
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;

int main(void)
{
	pthread_mutex_lock(&m);
	pthread_cond_timedwait(&c, &m, 0);
	pthread_mutex_unlock(&m);
	return 0;
}

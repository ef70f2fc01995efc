// A thread created detached through its attribute is not joinable either.
// expect rc11 sc: memory "pthread_join of a thread this thread detached"
#include <pthread.h>

static void *worker(void *arg) { return NULL; }

int main(void)
{
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_t t;
	pthread_create(&t, &attr, worker, NULL);
	pthread_join(t, NULL);
	return 0;
}

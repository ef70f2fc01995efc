// Joining a thread the joining thread detached is undefined (POSIX pthread_join: the
// thread must be joinable): an error at the join.
// expect rc11 sc: memory "pthread_join of a thread this thread detached"
#include <pthread.h>

static void *worker(void *arg) { return NULL; }

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	pthread_detach(t);
	pthread_join(t, NULL);
	return 0;
}

// A detached thread's bug is found although nobody joins it: porf explores every
// thread to its end. The worker's assertion fails when it reads 0, which it can, main
// never writes the flag.
// expect rc11 sc: assertion "flag == 1"
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag;

static void *worker(void *arg)
{
	assert(flag == 1);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	pthread_detach(t);
	return 0;
}

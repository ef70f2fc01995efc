// The same comparison with the wrong integer: the thread returned (void *)42, not 41.
// expect rc11 sc: assertion
// expect-stderr: warning: comparison between pointer and integer
#include <pthread.h>
#include <assert.h>

static void *worker(void *arg)
{
	return (void *)42;
}

int main(void)
{
	pthread_t t;
	void *r;
	pthread_create(&t, 0, worker, 0);
	pthread_join(t, &r);
	assert(r == 41);
	return 0;
}

// The same assertion without the join: main may read x before the thread writes it
// (x is atomic here, so there is no race), and the assertion, with its message, fails.
// expect rc11 sc: assertion "x is set"
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x;

static void *set(void *arg)
{
	x = 1;
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, set, 0);
	assert(x == 1 && "x is set");
	return 0;
}

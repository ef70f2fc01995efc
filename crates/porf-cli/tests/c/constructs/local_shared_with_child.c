// A thread other than main hands the address of its local x to a thread it spawns;
// the child writes 5 through it, the parent joins the child and reads x: 5 (the
// child's write happens-before the read through the join), one execution. x lives
// while the parent runs, so nothing is freed early.
// expect rc11 sc: safe 1
#include <assert.h>
#include <pthread.h>

void *child(void *arg)
{
	int *p = arg;
	*p = 5;
	return 0;
}

void *parent(void *arg)
{
	pthread_t t;
	int x = 0;
	pthread_create(&t, 0, child, &x);
	pthread_join(t, 0);
	assert(x == 5);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, parent, 0);
	pthread_join(t, 0);
	return 0;
}

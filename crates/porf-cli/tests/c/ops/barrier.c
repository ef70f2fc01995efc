/* Two threads meet at a barrier; the check after it reads the other thread's value,
 * written after the barrier: it may not be there yet. */
#include <assert.h>
#include <pthread.h>

pthread_barrier_t b;
int x, y;

void *t1(void *arg)
{
	x = 1;
	pthread_barrier_wait(&b);
	y = 1;
	return 0;
}

void *t2(void *arg)
{
	pthread_barrier_wait(&b);
	assert(x == 1);
	assert(y == 1);
	return 0;
}

int main(void)
{
	pthread_t a, c;
	pthread_barrier_init(&b, 0, 2);
	pthread_create(&a, 0, t1, 0);
	pthread_create(&c, 0, t2, 0);
	pthread_join(a, 0);
	pthread_join(c, 0);
	return 0;
}

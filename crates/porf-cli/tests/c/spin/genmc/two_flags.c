/* After GenMC v0.11 tests/correct/liveness/doubleloop (run there with
 * -check-liveness): a thread spins until x or y is set; two threads each set one
 * flag if the other is still clear. */
#include <stdatomic.h>
#include <pthread.h>

atomic_int x, y;

void *spin(void *arg)
{
	for (;;) {
		if (x)
			break;
		if (y)
			break;
	}
	return NULL;
}

void *set_y(void *arg)
{
	if (!x)
		y = 1;
	return NULL;
}

void *set_x(void *arg)
{
	if (!y)
		x = 1;
	return NULL;
}

int main(void)
{
	pthread_t a, b, c;
	pthread_create(&a, NULL, spin, NULL);
	pthread_create(&b, NULL, set_y, NULL);
	pthread_create(&c, NULL, set_x, NULL);
	return 0;
}

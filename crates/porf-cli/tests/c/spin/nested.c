/* A spin loop inside a spin loop: the outer one waits for `b`, the inner one for `a`;
 * the writer sets `a`, then `b`. */
#include <stdatomic.h>
#include <pthread.h>

atomic_int a, b;

void *writer(void *arg)
{
	a = 1;
	b = 1;
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, writer, NULL);
	while (!b) {
		while (!a)
			;
	}
	return 0;
}

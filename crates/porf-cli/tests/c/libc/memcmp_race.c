/* memcmp reads both objects: racing with a thread writing one of them. */
#include <pthread.h>
#include <string.h>

int x[2], y[2];

void *writer(void *arg)
{
	x[1] = 1;
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, writer, NULL);
	int r = memcmp(x, y, sizeof x);
	pthread_join(t, NULL);
	return r != 0;
}
// expect rc11 sc: race

/* After GenMC v0.11 tests/correct/saver/loop-peel: a reader reads x once before its
 * loop and again in it, until x is 0; a writer stores 0..41. */
#include <stdatomic.h>
#include <pthread.h>

atomic_int x;

void *writer(void *arg)
{
	for (int i = 0; i < 42; i++)
		x = i;
	return NULL;
}

void *reader(void *arg)
{
	int v = x;
	while (v != 0)
		v = x;
	return NULL;
}

int main(void)
{
	pthread_t w, r;
	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&r, NULL, reader, NULL);
	return 0;
}

/* --disable-race-detection hides races only: the writer stores x = 1 racing with
 * main's read, and main asserts it read the initial 0, which fails when it reads
 * the store. With the flag the assertion failure is still reported. */
#include <assert.h>
#include <pthread.h>

int x;

void *writer(void *arg)
{
	x = 1;
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, writer, NULL);
	assert(x == 0);
	pthread_join(t, NULL);
	return 0;
}
// expect rc11 sc: race
// expect rc11 sc | --disable-race-detection: assertion "x == 0"

// A worker whose local loop runs past porf's step budget without its state
// repeating (i = 7i + 1 on 64 bits never equals 3): porf gives up and says so.
#include <pthread.h>

int x;

void *worker(void *arg)
{
	unsigned long i = 0;
	while (i != 3)
		i = i * 7 + 1;
	x = 1;
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, worker, 0);
	return 0;
}

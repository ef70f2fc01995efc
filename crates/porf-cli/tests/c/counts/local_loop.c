// A worker whose local loop never ends: i cycles through 0..4 and never goes
// negative, so the loop's state repeats (non-termination, exit 5).
#include <pthread.h>

int x;

void *worker(void *arg)
{
	int i = 0;
	while (i >= 0)
		i = (i + 1) % 5;
	x = 1;
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, worker, 0);
	x = 2;
	return 0;
}

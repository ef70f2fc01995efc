// A loop creating more threads than porf supports (1024, main included): the 1024th
// pthread_create stops main at the call (line 16, column 3), exit code 3, instead of
// letting it go on creating threads that each stop at their start.
// expect: rejected "would exceed the 1024 threads porf supports"
#include <pthread.h>

void *t(void *arg)
{
	return 0;
}

int main(void)
{
	pthread_t ids[2000];
	for (int i = 0; i < 2000; i++)
		pthread_create(&ids[i], 0, t, 0);
	return 0;
}

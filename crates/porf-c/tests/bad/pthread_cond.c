// expect: unsupported 9:2
#include <pthread.h>

pthread_mutex_t m;
pthread_cond_t c;

int main(void)
{
	pthread_cond_signal(&c);
	return 0;
}

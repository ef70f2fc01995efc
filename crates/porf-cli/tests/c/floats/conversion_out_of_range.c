// Converting a double whose integral part an int cannot represent is undefined
// (C11 6.3.1.4p1); porf reports it as a memory-class error. The worker scales the
// mutex-protected global from 1.5 to 1.5e10 (exact: 15000000000 is an integer below
// 2^53); when main's critical section comes second it converts
// 1.5e10 > INT_MAX = 2147483647 to int, which is the error; when it comes first it
// converts 1.5 to 1. So the error is reachable (in one of the two lock orders).
// expect: memory "out of range"
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
double scale = 1.5;

void *grow(void *arg)
{
	pthread_mutex_lock(&m);
	scale *= 1e10;
	pthread_mutex_unlock(&m);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, grow, 0);
	pthread_mutex_lock(&m);
	int units = scale;
	pthread_mutex_unlock(&m);
	pthread_join(t, 0);
	return units > 0 ? 0 : 1;
}

// A double written by one thread and read by another with no synchronisation is a
// data race (both accesses non-atomic, neither happens before the other), as for any
// other type; porf reports it under rc11 and sc.
// expect: race
#include <pthread.h>

double price;

void *writer(void *arg)
{
	price = 9.99;
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, writer, 0);
	double seen = price;
	pthread_join(t, 0);
	return seen > 0;
}

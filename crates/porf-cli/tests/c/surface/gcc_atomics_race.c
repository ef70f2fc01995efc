// Message passing with a relaxed __atomic_store_n: the flag does not order the data,
// so reading the data after seeing the flag is a data race.
// expect rc11: race
#include <pthread.h>

int data, flag;

static void *writer(void *arg)
{
	data = 1;
	__atomic_store_n(&flag, 1, __ATOMIC_RELAXED);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, writer, 0);
	if (__atomic_load_n(&flag, __ATOMIC_ACQUIRE))
		return data;
	return 0;
}

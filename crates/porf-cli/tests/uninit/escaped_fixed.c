// The fixed variant of escaped.c: main initialises its local before the thread starts.
// porf-expect ALL: safe
#include <pthread.h>
#include <stdatomic.h>

void *reader(void *arg)
{
	atomic_int *p = arg;
	return (void *)(long)atomic_load_explicit(p, memory_order_acquire);
}

int main()
{
	pthread_t th;
	atomic_int data = 0;
	pthread_create(&th, 0, reader, &data);
	atomic_store_explicit(&data, 1, memory_order_release);
	pthread_join(th, 0);
	return 0;
}

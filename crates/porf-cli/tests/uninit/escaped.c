// main hands the address of its local to a thread, which may read it before main
// writes it: no write is visible to that read (GenMC: "read from uninitialized memory").
// porf-expect ALL: memory "read of an uninitialised local variable `data`"
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
	atomic_int data;
	pthread_create(&th, 0, reader, &data);
	atomic_store_explicit(&data, 1, memory_order_release);
	pthread_join(th, 0);
	return 0;
}

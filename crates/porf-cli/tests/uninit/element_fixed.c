// The fixed variant of element.c: the array starts out zeroed (`= {0}` initialises
// every element).
// porf-expect ALL: safe
#include <pthread.h>
#include <stdatomic.h>

atomic_int n;

void *t(void *a)
{
	atomic_store_explicit(&n, 1, memory_order_release);
	atomic_store_explicit(&n, 2, memory_order_release);
	return 0;
}

int main()
{
	pthread_t th;
	int buf[2] = {0};
	pthread_create(&th, 0, t, 0);
	int k = atomic_load_explicit(&n, memory_order_acquire);
	for (int i = 0; i < k; i++)
		buf[i] = i + 1;
	int sum = buf[0] + buf[1];
	pthread_join(th, 0);
	return sum == 3 ? 0 : 1;
}

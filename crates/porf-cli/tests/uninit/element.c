// An array filled up to the number of values another thread published: when the
// reader sees fewer than it then reads, the elements past them were never written
// (`buf[0]` when it sees none, `buf[1]` when it sees one).
// porf-expect ALL: memory "read of an uninitialised local variable `buf[0]`"; memory "read of an uninitialised local variable `buf[1]`"
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
	int buf[2];
	pthread_create(&th, 0, t, 0);
	int k = atomic_load_explicit(&n, memory_order_acquire);
	for (int i = 0; i < k; i++)
		buf[i] = i + 1;
	int sum = buf[0] + buf[1];
	pthread_join(th, 0);
	return sum == 3 ? 0 : 1;
}

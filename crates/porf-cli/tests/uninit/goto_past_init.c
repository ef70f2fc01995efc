// A `goto` jumps past the initialisation of a local into its scope: the local exists
// but holds no value (C11 6.2.4p6, 6.8.6.1), so the read after the label is of an
// indeterminate value when the jump is taken.
// porf-expect ALL: memory "read of an uninitialised local variable `limit`"
#include <pthread.h>
#include <stdatomic.h>

atomic_int ready;
int out;

void *t(void *a)
{
	atomic_store_explicit(&ready, 1, memory_order_release);
	return 0;
}

int main()
{
	pthread_t th;
	pthread_create(&th, 0, t, 0);
	if (atomic_load_explicit(&ready, memory_order_acquire))
		goto done;
	int limit = 4;
	out = 1;
done:
	out = limit;
	pthread_join(th, 0);
	return 0;
}

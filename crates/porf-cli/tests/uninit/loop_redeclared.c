// A local declared without initializer in a loop body is indeterminate again each time
// its declaration is reached (C11 6.8p3): the second iteration reads the value the
// first one left only if it writes it again.
// porf-expect ALL: memory "read of an uninitialised local variable `v`"
#include <pthread.h>
#include <stdatomic.h>

atomic_int go;
int total;

void *t(void *a)
{
	atomic_store_explicit(&go, 1, memory_order_release);
	return 0;
}

int main()
{
	pthread_t th;
	pthread_create(&th, 0, t, 0);
	for (int i = 0; i < 2; i++) {
		int v;
		if (i == 0 || atomic_load_explicit(&go, memory_order_acquire))
			v = i;
		total += v;
	}
	pthread_join(th, 0);
	return 0;
}

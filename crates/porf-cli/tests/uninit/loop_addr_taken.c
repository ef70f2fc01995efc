// loop_redeclared.c with the local in private memory (its address is taken): its
// declaration makes it uninitialised again on every iteration.
// porf-expect ALL: memory "read of an uninitialised local variable `v`"
#include <pthread.h>
#include <stdatomic.h>

atomic_int go;
int total;

static void put(int *p, int v)
{
	*p = v;
}

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
			put(&v, i);
		total += v;
	}
	pthread_join(th, 0);
	return 0;
}

// The fixed variant of loop_redeclared.c: the local is initialised where it is
// declared, on every iteration.
// porf-expect ALL: safe
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
		int v = 0;
		if (i == 0 || atomic_load_explicit(&go, memory_order_acquire))
			v = i;
		total += v;
	}
	pthread_join(th, 0);
	return 0;
}

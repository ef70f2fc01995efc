// A re-initialisation that only some executions perform: `t` initialises the
// barrier again when its relaxed load of `go` reads main's 1. main's init happens
// before `t` (spawn), so that init reads main's size: an error. The load reading the
// initial 0 is the other execution (no error in it). The error is found under both
// models (either order of the two events is consistent).
// expect rc11 sc: memory "already initialised"
#include <pthread.h>
#include <stdatomic.h>

pthread_barrier_t bar;
atomic_int go;

static void *t(void *arg)
{
	if (atomic_load_explicit(&go, memory_order_relaxed))
		pthread_barrier_init(&bar, 0, 1);
	return 0;
}

int main(void)
{
	pthread_t a;
	pthread_barrier_init(&bar, 0, 1);
	pthread_create(&a, 0, t, 0);
	atomic_store_explicit(&go, 1, memory_order_relaxed);
	pthread_join(a, 0);
	return 0;
}

// The fixed variant of escaped_counter.c: `atomic_init` before the threads start.
// porf-expect ALL: safe
#include <pthread.h>
#include <stdatomic.h>

void *inc(void *arg)
{
	atomic_fetch_add_explicit((atomic_int *)arg, 1, memory_order_relaxed);
	return 0;
}

int main()
{
	pthread_t a, b;
	atomic_int cnt;
	atomic_init(&cnt, 0);
	pthread_create(&a, 0, inc, &cnt);
	pthread_create(&b, 0, inc, &cnt);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return atomic_load_explicit(&cnt, memory_order_relaxed) == 2 ? 0 : 1;
}

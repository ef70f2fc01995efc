// Two threads increment a counter that is main's local, never initialised: the first
// increment reads no write (an RMW reads too).
// porf-expect ALL: memory "read of an uninitialised local variable `cnt`"
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
	pthread_create(&a, 0, inc, &cnt);
	pthread_create(&b, 0, inc, &cnt);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return atomic_load_explicit(&cnt, memory_order_relaxed) == 2 ? 0 : 1;
}

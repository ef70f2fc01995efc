// A flag read once before a loop and again in it, as in peek_then_spin.c, but the
// loop first waits in an inner spin loop for a tick to change (a ticket lock's slow
// path around a waiting array, as in GenMC's twalock):
//   u = tick; r = flag;
//   while (!r) { while ((v = tick) == u) ; u = v; r = flag; }
// against a writer of tick = 1, then flag = 1. `u` is live at the outer loop's head
// and dead after it.
#include <stdatomic.h>
#include <pthread.h>

atomic_int flag, tick;

void *writer(void *arg)
{
	atomic_store_explicit(&tick, 1, memory_order_release);
	atomic_store_explicit(&flag, 1, memory_order_release);
	return 0;
}

void *reader(void *arg)
{
	int u = atomic_load_explicit(&tick, memory_order_acquire);
	int r = atomic_load_explicit(&flag, memory_order_acquire);
	while (!r) {
		int v;
		while ((v = atomic_load_explicit(&tick, memory_order_acquire)) == u)
			;
		u = v;
		r = atomic_load_explicit(&flag, memory_order_acquire);
	}
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, writer, 0);
	pthread_create(&b, 0, reader, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}

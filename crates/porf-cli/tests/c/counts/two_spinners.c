// Two threads wait in the same spin loop for a flag main sets (or not).
// Executions: each waiter reads flag = 0 (spin-assume blocks it: the iteration
// changed nothing) or 1 (it leaves). main writes 1 after spawning, so each waiter
// independently reads 0 or 1: 4 executions, 1 complete (both read 1) and 3 blocked:
// one waiter blocked (2 executions) or both (1 execution, counted once for the loop).
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag;

void *waiter(void *arg)
{
	while (!atomic_load_explicit(&flag, memory_order_acquire))
		;
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, waiter, 0);
	pthread_create(&b, 0, waiter, 0);
	atomic_store_explicit(&flag, 1, memory_order_release);
	return 0;
}

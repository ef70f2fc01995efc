// Direct and mutual recursion in a spawned thread. The thread computes fact(4) = 24
// and even(5) = 0 recursively and publishes fact(4) + even(5) = 24 in x; main reads x
// once, before or after that store: 0 or 24, two executions under both models (one
// write, one read of x; the join comes after the read).
// expect rc11 sc: safe 2
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x;

int fact(int n)
{
	return n <= 1 ? 1 : n * fact(n - 1);
}

int odd(int n);

int even(int n)
{
	return n == 0 ? 1 : odd(n - 1);
}

int odd(int n)
{
	return n == 0 ? 0 : even(n - 1);
}

void *worker(void *arg)
{
	atomic_store(&x, fact(4) + even(5));
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, worker, 0);
	int r = atomic_load(&x);
	assert(r == 0 || r == 24);
	pthread_join(t, 0);
	return 0;
}

// A recursive sum with an off-by-one: sum(3) = 3 + 2 + 1 + 0 = 6, but the assertion
// claims 7 once the thread has published it. main reads s = 0 (no failure) or 6
// (failure): the failing execution exists under both models.
// expect rc11 sc: assertion
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int s;

int sum(int n)
{
	if (n == 0)
		return 0;
	return n + sum(n - 1);
}

void *worker(void *arg)
{
	atomic_store(&s, sum(3));
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, worker, 0);
	int r = atomic_load(&s);
	assert(r == 0 || r == 7);
	return 0;
}

// Two errors in different executions. Under rc11 every access below is relaxed, so
// the executions are: t2 reads x in {0, 1} and y in {0, 1} (4 ways), t3 reads x in
// {0, 1}; when t3 reads 1 it writes d, whose two writes are ordered either way in co
// (2 ways). That is 4 * 1 + 4 * 2 = 12 executions.
// * The assertion fails when t2 reads x = 1 and y = 0: 1 * (1 + 2) = 3 executions.
// * t1's and t3's writes of d race when t3 reads x = 1: 4 * 2 = 8 executions (two of
//   them also fail the assertion).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;
int d;

void *t1(void *arg)
{
	atomic_store_explicit(&x, 1, memory_order_relaxed);
	d = 1;
	return 0;
}

void *t2(void *arg)
{
	int r = atomic_load_explicit(&x, memory_order_relaxed);
	int s = atomic_load_explicit(&y, memory_order_relaxed);
	assert(!(r == 1 && s == 0));
	return 0;
}

void *t3(void *arg)
{
	atomic_store_explicit(&y, 1, memory_order_relaxed);
	if (atomic_load_explicit(&x, memory_order_relaxed))
		d = 2;
	return 0;
}

int main(void)
{
	pthread_t a, b, c;
	pthread_create(&a, 0, t1, 0);
	pthread_create(&b, 0, t2, 0);
	pthread_create(&c, 0, t3, 0);
	return 0;
}

// The spinner's fetch_sub/fetch_add pair cancels out, but xreader may read the -1 in
// between, and the spinner then ends and sets y, which yreader reads: a = -1 and b = 1
// together, under every model. yreader has the lower thread id, so an explorer that
// blocked the spinner after a cancelling iteration, and let it go on only once
// someone read the -1, would already have added yreader's read of y (seeing 0) when
// xreader reads the -1; the spinner's later store of y could then revisit it only by
// deleting xreader's read of the -1, a read that was not of the co-latest write,
// which TruSt's maximality rule forbids. Such a "lift the block when the value is
// read" rule (GenMC's reconsidered FAI spin loops) misses this run.
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>

atomic_int x, stop, y;
int a, b;

void *spinner(void *arg)
{
	while (!atomic_load(&stop)) {
		atomic_fetch_sub(&x, 1);
		atomic_fetch_add(&x, 1);
	}
	atomic_store(&y, 1);
	return 0;
}

void *yreader(void *arg)
{
	b = atomic_load(&y);
	return 0;
}

void *xreader(void *arg)
{
	a = atomic_load(&x);
	return 0;
}

void *stopper(void *arg)
{
	atomic_store(&stop, 1);
	return 0;
}

int main(void)
{
	pthread_t t1, t2, t3, t4;
	pthread_create(&t1, 0, spinner, 0);
	pthread_create(&t2, 0, yreader, 0);
	pthread_create(&t3, 0, xreader, 0);
	pthread_create(&t4, 0, stopper, 0);
	pthread_join(t1, 0);
	pthread_join(t2, 0);
	pthread_join(t3, 0);
	pthread_join(t4, 0);
	assert(!(a == -1 && b == 1));
	return 0;
}

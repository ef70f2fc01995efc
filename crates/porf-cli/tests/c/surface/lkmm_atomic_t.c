// porf's <lkmm.h>: atomic_t and its operations. By hand: two threads each
// atomic_inc the counter (relaxed fetch-add) and one then atomic_add_return(2)
// (fully ordered); the RMWs are totally ordered on the counter: the 3 RMWs come in
// the orders that keep each thread's program order: thread 1 has one RMW, thread 2
// two, so 3 interleavings; the final value is 4 in each, which main checks after
// joining both.
// expect: safe 3
#include <assert.h>
#include <lkmm.h>

atomic_t c = ATOMIC_INIT(0);

static void *one(void *arg)
{
	atomic_inc(&c);
	return NULL;
}

static void *two(void *arg)
{
	atomic_inc(&c);
	int r = atomic_add_return(2, &c);
	assert(r >= 3);
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, one, NULL);
	pthread_create(&b, NULL, two, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(atomic_read(&c) == 4);
	return 0;
}

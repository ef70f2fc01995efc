// GCC's __atomic_* (orders __ATOMIC_*) and __sync_* (full barriers) builtins on
// plain integers. The thread adds 1 to x; main's compare-and-swap 0 -> 5 happens
// before or after it: 2 executions. After the join x is 6 (CAS first) or 1.
// expect rc11 sc: safe 2
#include <assert.h>
#include <pthread.h>

long x;
unsigned char c = 250;

static void *add(void *arg)
{
	__atomic_fetch_add(&x, 1, __ATOMIC_RELAXED);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, add, 0);
	long old = __sync_val_compare_and_swap(&x, 0, 5);
	pthread_join(t, 0);
	assert(__atomic_load_n(&x, __ATOMIC_SEQ_CST) == (old == 0 ? 6 : 1));
	assert(__sync_add_and_fetch(&c, 10) == 4); /* wraps as unsigned char */
	long e = 7;
	assert(!__atomic_compare_exchange_n(&x, &e, 0, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	assert(e == x);
	__sync_synchronize();
	assert(__builtin_expect(x > 0, 1));
	return 0;
}

// Dat3M's `__VERIFIER_assert(c)` is an assertion, `__VERIFIER_tid()` the value
// `pthread_self()` returns. Two threads increment a counter atomically: the final
// value is 2 in both orders of the increments (2 executions).
// expect rc11 tso sc: safe 2
#include <pthread.h>
#include <stdatomic.h>
extern void __VERIFIER_assert(int);
extern unsigned int __VERIFIER_tid(void);

atomic_int count;

static void *inc(void *arg)
{
	__VERIFIER_assert(__VERIFIER_tid() == pthread_self());
	atomic_fetch_add(&count, 1);
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, inc, 0);
	pthread_create(&b, 0, inc, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	__VERIFIER_assert(__VERIFIER_tid() == pthread_self());
	__VERIFIER_assert(count == 2);
	return 0;
}

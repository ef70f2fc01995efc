// Two unsynchronised read-modify-write sequences (load, then store of load + 1) can
// both read 0: the final count 1 fails `__VERIFIER_assert`.
// expect rc11 tso sc: assertion "__VERIFIER_assert"
#include <pthread.h>
#include <stdatomic.h>
extern void __VERIFIER_assert(int);

atomic_int count;

static void *inc(void *arg)
{
	int v = atomic_load(&count);
	atomic_store(&count, v + 1);
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, inc, 0);
	pthread_create(&b, 0, inc, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	__VERIFIER_assert(count == 2);
	return 0;
}

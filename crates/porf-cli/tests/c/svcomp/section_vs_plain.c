// An atomic section (`__VERIFIER_atomic_begin`/`_end`) writes 1 then 2; main reads
// the location with a plain C11 atomic load, outside any section. The intermediate 1
// is never visible: main reads 0 (before the section) or 2 (after): 2 complete
// executions.
// expect sc: safe 2
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int x;

void *writer(void *arg)
{
	__VERIFIER_atomic_begin();
	atomic_store(&x, 1);
	atomic_store(&x, 2);
	__VERIFIER_atomic_end();
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, writer, 0);
	int r = atomic_load(&x);
	assert(r != 1);
	pthread_join(t, 0);
	return 0;
}

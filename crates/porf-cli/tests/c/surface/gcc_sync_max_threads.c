// Two threads raise a shared maximum with __sync_fetch_and_max (an RMW: each reads
// the other's result or the initial value). The RMWs are ordered either way: 2
// executions, and the final value is the larger operand whatever the order.
// expect rc11 sc: safe 2
#include <assert.h>
#include <pthread.h>

int best = 3;

static void *raise_to(void *arg)
{
	__sync_fetch_and_max(&best, (int)(long)arg);
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, raise_to, (void *)5L);
	pthread_create(&b, NULL, raise_to, (void *)-2L);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(best == 5);
	return 0;
}

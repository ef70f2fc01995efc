// The same helper called on a branch no execution takes (flag is 0 or 1, never 2):
// the two executions (main's load reads the initial 0 or T1's 1) are explored and no
// error is reported.
// expect: safe 2
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
static uint32_t bswap(uint32_t x) { return __builtin_bswap32(x); }

atomic_int flag;

void *t(void *arg)
{
	atomic_store(&flag, 1);
	return NULL;
}

int main(void)
{
	pthread_t th;
	pthread_create(&th, NULL, t, NULL);
	uint32_t v = 1;
	if (atomic_load(&flag) == 2)
		v = bswap(v);
	pthread_join(th, NULL);
	return (int)v - 1;
}

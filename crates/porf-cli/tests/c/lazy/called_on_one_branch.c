// An unsupported construct in a function called on one branch only: the error is
// raised when an execution takes that branch, at the construct's position (line 9,
// column 44: the call of `__builtin_bswap32`), exit code 3. Main reads `flag` either
// before or after T1's store; the execution reading 1 calls `bswap`.
// expect: rejected "__builtin_bswap32"
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
	if (atomic_load(&flag))
		v = bswap(v);
	pthread_join(th, NULL);
	return (int)v;
}

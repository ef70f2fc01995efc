// <sys/time.h>: gettimeofday is a deterministic stand-in (time does not pass in porf:
// the epoch, 0 s and 0 us, result 0). One thread: 1 complete execution.
// expect: safe 1
#include <assert.h>
#include <sys/time.h>

int main(void)
{
	struct timeval tv = { 5, 6 };
	assert(gettimeofday(&tv, 0) == 0);
	assert(tv.tv_sec == 0 && tv.tv_usec == 0);
	return 0;
}

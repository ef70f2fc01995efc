// gcc accepts comparisons between a pointer and an integer with a warning; porf
// converts the integer to a pointer (as a cast would) and compares addresses. The
// thread returns (void *)42, so `r == 42` holds; the address of a global is not null,
// so as an address it is at least 1 (`&g >= 1`). One execution.
// expect rc11 sc: safe 1
// expect-stderr: ptr_int_compare.c:24:8: warning: comparison between pointer and integer
#include <pthread.h>
#include <assert.h>

int g;

static void *worker(void *arg)
{
	return (void *)42;
}

int main(void)
{
	pthread_t t;
	void *r;
	pthread_create(&t, 0, worker, 0);
	pthread_join(t, &r);
	assert(&g >= 1);
	assert(r == 42);
	assert(42 == r);
	return 0;
}

// gcc accepts an address assigned to an integer and an integer assigned to a
// pointer, with -Wint-conversion warnings; so does porf. The address survives the
// round trip through a long (LP64), so the thread's store through the converted
// pointer writes x, and main, after the join, reads 5: one execution.
// expect rc11 sc: safe 1
// expect-stderr: pointer `int *` converted to integer `long` without a cast
// expect-stderr: `long` converted to pointer `int *` without a cast
#include <assert.h>
#include <pthread.h>

int x;
long addr;

void *writer(void *arg)
{
	int *p = addr;
	*p = 5;
	return 0;
}

int main(void)
{
	pthread_t t;
	addr = &x;
	pthread_create(&t, 0, writer, 0);
	pthread_join(t, 0);
	assert(x == 5);
	return 0;
}

// String literals are arrays of char with static storage (C11 6.4.5p6); in a
// condition a literal is a non-null pointer, so `x == 1 && "msg"` is `x == 1`.
// x is written before the join: one execution, no failure.
// expect rc11 sc: safe 1
#include <assert.h>
#include <pthread.h>

int x;
const char *greeting = "hello";

static void *set(void *arg)
{
	x = 1;
	return 0;
}

int main(void)
{
	pthread_t t;
	const char *s = "hello";
	pthread_create(&t, 0, set, 0);
	pthread_join(t, 0);
	assert(x == 1 && "x is set before the join");
	assert(s[1] == 'e' && s[5] == 0 && greeting[4] == 'o');
	return 0;
}

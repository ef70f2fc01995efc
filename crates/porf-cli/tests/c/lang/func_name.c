// `__func__` (C11 6.4.2.2) is `static const char __func__[] = "name";` in each
// function; GCC's `__FUNCTION__` and (in C) `__PRETTY_FUNCTION__` are the same. One
// thread, no branching on shared memory: one execution.
// expect: safe 1
#include <assert.h>
#include <string.h>

static const char *who(void) { return __func__; }

int main(void)
{
	assert(strcmp(who(), "who") == 0);
	assert(strcmp(__func__, "main") == 0);
	assert(sizeof(__func__) == 5);
	assert(__FUNCTION__[0] == 'm' && __PRETTY_FUNCTION__[3] == 'n');
	return 0;
}

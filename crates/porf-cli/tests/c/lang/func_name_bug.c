// A wrong expectation about `__func__`: it names the function it appears in (here
// `helper`), not the caller, so the assertion fails.
// expect: assertion
#include <assert.h>
#include <string.h>

static const char *helper(void) { return __func__; }

int main(void)
{
	assert(strcmp(helper(), "main") == 0);
	return 0;
}

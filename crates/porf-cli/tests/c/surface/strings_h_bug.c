// strcasecmp compares folded to lower case: '[' (91) lies between 'Z' (90) and 'a'
// (97), so although '[' > 'A' (65) byte-wise, after folding 'A' is 'a' and
// 91 - 97 < 0. The assertion claims the byte-wise order: it fails.
// expect: assertion
#include <assert.h>
#include <strings.h>

int main(void)
{
	assert(strcasecmp("[", "A") > 0);
	return 0;
}

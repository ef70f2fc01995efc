// <strings.h> (POSIX): ffs/ffsl/ffsll (1 + index of the lowest set bit, 0 for 0),
// ASCII case-insensitive comparison, index/rindex, bzero/bcopy/bcmp. One thread, no
// choices: one complete execution, every assertion true by the values below.
// expect: safe 1
#include <assert.h>
#include <limits.h>
#include <strings.h>

int a[3] = {1, 2, 3};
int b[3];

int main(void)
{
	assert(ffs(0) == 0);
	assert(ffs(1) == 1);
	assert(ffs(12) == 3);          /* 0b1100 */
	assert(ffs(INT_MIN) == 32);    /* only bit 31 */
	assert(ffsl(1L << 40) == 41);
	assert(ffsll(0) == 0);
	assert(strcasecmp("Hello", "hELLO") == 0);
	assert(strcasecmp("abc", "ABD") < 0);       /* 'c' < 'd' */
	assert(strcasecmp("b", "A") > 0);
	assert(strncasecmp("abcX", "ABCy", 3) == 0);
	assert(strncasecmp("abcX", "ABCy", 4) < 0); /* 'x' (120) < 'y' (121) */
	const char *s = "banana";
	assert(index(s, 'n') == s + 2);
	assert(rindex(s, 'n') == s + 4);
	assert(index(s, 'z') == 0);
	bcopy(a, b, sizeof(a));
	assert(b[0] == 1 && b[1] == 2 && b[2] == 3);
	assert(bcmp(a, b, sizeof(a)) == 0);
	bzero(b, sizeof(b));
	assert(b[0] == 0 && b[1] == 0 && b[2] == 0);
	assert(bcmp(a, b, sizeof(a)) != 0);
	return 0;
}

// The bounded and searching <string.h> functions (C11 7.24): strncpy pads a short
// source with NULs and leaves a long one unterminated, strncmp compares at most n
// characters, strncat always terminates, strchr finds the terminating NUL too,
// strrchr the last match, strnlen stops at its bound, strdup copies into a new
// block. One thread: one execution.
// expect rc11 sc: safe 1
#include <assert.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char d[6] = {'x', 'x', 'x', 'x', 'x', 'x'};
	assert(strncpy(d, "hi", 5) == d);
	assert(d[0] == 'h' && d[1] == 'i' && d[2] == 0 && d[4] == 0 && d[5] == 'x');
	strncpy(d, "abcdefgh", 6); /* no NUL */
	assert(d[5] == 'f');
	assert(strncmp("abcd", "abce", 3) == 0 && strncmp("abcd", "abce", 4) < 0);
	assert(strncmp("b", "a", 0) == 0 && strncmp("\xff", "a", 1) > 0);
	char cat[8] = {'a', 'b', 0};
	strncat(cat, "cdef", 2);
	assert(strcmp(cat, "abcd") == 0);
	strcat(cat, "xy");
	assert(strcmp(cat, "abcdxy") == 0);
	const char *s = "hello";
	assert(strchr(s, 'l') == s + 2 && strrchr(s, 'l') == s + 3);
	assert(strchr(s, 0) == s + 5 && strchr(s, 'z') == NULL && strrchr(s, 'z') == NULL);
	assert(strnlen(s, 3) == 3 && strnlen(s, 10) == 5);
	char *copy = strdup(s);
	assert(copy != s && strcmp(copy, s) == 0);
	free(copy);
	return 0;
}

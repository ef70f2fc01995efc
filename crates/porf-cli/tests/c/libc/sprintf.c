// sprintf and snprintf format as printf does (C11 7.21.6.1) into the buffer: the
// texts below are those of the C standard's conversions (checked by hand), snprintf
// stores at most n - 1 characters and a NUL and returns the length of the whole text
// (7.21.6.5), snprintf(NULL, 0, ...) only measures. One thread: one execution.
// expect rc11 sc: safe 1
#include <assert.h>
#include <stdio.h>
#include <string.h>

char global[8];

int main(void)
{
	char b[40];
	int n = sprintf(b, "x=%d,%s|%5.2f|%-4u|%03x|%c", -42, "ab", 3.14159, 7u, 10, 'z');
	assert(n == 25);
	assert(strcmp(b, "x=-42,ab| 3.14|7   |00a|z") == 0);
	n = snprintf(global, sizeof global, "%lu-%X", 123456UL, 255);
	assert(n == 9);
	assert(strcmp(global, "123456-") == 0);
	assert(snprintf(NULL, 0, "%d", 1000) == 4);
	char one[1] = {'q'};
	assert(snprintf(one, 1, "abc") == 3 && one[0] == 0);
	assert(sprintf(b, "%s", "") == 0 && b[0] == 0);
	return 0;
}

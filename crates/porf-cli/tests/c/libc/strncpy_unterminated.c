// strncpy of a source as long as the bound leaves the destination without a NUL
// (C11 7.24.2.4): strlen then reads past the heap block, an out-of-bounds access.
// expect rc11 sc: memory "out-of-bounds"
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *d = malloc(4);
	strncpy(d, "abcd", 4);
	size_t n = strlen(d);
	free(d);
	return (int)n;
}

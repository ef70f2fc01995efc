// sprintf into a heap buffer one byte too small for the text and its NUL: the store
// of the NUL is past the block, an out-of-bounds access (C11 7.21.6.6: the buffer
// must hold the whole text).
// expect rc11 sc: memory "out-of-bounds"
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	char *b = malloc(5);
	sprintf(b, "%d", 12345);
	free(b);
	return 0;
}

#include <stdlib.h>
#include <assert.h>

int main(void)
{
	int *p = malloc(2 * sizeof(int));
	p[1] = 7;
	free(p);
	return p[1];
}

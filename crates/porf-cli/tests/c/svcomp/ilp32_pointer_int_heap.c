// A heap address converted to `unsigned long` (4 bytes under `--data-model ilp32`):
// porf's heap addresses need more than 4 bytes, so keeping only their low bits would
// make the conversion back a pointer to other memory. Under ILP32 the conversion is
// refused where it runs (line 17, column 20); under LP64 `unsigned long` holds the
// whole address and the round trip is exact (1 complete execution).
// expect sc | --data-model ilp32: rejected "does not fit in 4 bytes"
// expect sc: safe 1
#include <assert.h>
#include <stdlib.h>

int main(void)
{
	int *p = malloc(sizeof(int));
	if (!p)
		return 0;
	*p = 5;
	unsigned long a = (unsigned long)p;
	int *q = (int *)a;
	assert(*q == 5);
	free(p);
	return 0;
}

// aligned_alloc with an alignment that is not a power of two (C11 7.22.3.1: not a
// valid alignment) is an error (GenMC: "Invalid alignment in aligned_alloc()").
// expect rc11 sc: memory "invalid alignment"
#include <stdlib.h>

int main(void)
{
	void *p = aligned_alloc(3, 9);
	free(p);
	return 0;
}

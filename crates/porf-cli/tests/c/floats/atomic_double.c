// Atomic floating-point objects are not supported (their read-modify-writes would
// need a compare-exchange loop on the bit pattern): rejected at the declaration.
// expect: rejected "atomic floating-point objects"
#include <stdatomic.h>

_Atomic double total;

int main(void)
{
	total = 1.0;
	return 0;
}

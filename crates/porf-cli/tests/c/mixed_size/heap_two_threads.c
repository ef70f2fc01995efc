// The overlapping accesses come from different threads: main stores 4 bytes at the
// start of a heap block and a child stores one byte at its third byte. Whichever
// access an exploration adds second is reported (exit 3), under every explorer.
// expect: rejected "mixed-size accesses"
// expect rc11 sc: rejected "overlaps"
// expect sc | --explorer reference: rejected "mixed-size accesses"
// expect sc | --equiv rf: rejected "mixed-size accesses"
// expect sc | --equiv rf --explorer rf-smc: rejected "mixed-size accesses"
// expect sc | --equiv rf --explorer rf-part-smc: rejected "mixed-size accesses"
// expect sc | --equiv rvf: rejected "mixed-size accesses"
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

uint32_t *p;

void *child(void *arg)
{
	((uint8_t *)p)[2] = 7;
	return 0;
}

int main(void)
{
	pthread_t t;
	p = malloc(4);
	pthread_create(&t, 0, child, 0);
	*p = 1;
	pthread_join(t, 0);
	return 0;
}

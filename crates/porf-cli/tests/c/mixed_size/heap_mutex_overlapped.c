// A mutex's lock word is at byte 4 of a heap struct (after an int); the program
// first stores 8 bytes at byte 0 through a wider type, covering bytes 0-7. The lock
// (width-less, at byte 4) lies inside that store, so it is a mixed-size access:
// rejected (exit 3).
// expect: rejected "mixed-size accesses: mutex lock"
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

struct pair {
	int x;
	pthread_mutex_t m;
};

int main(void)
{
	struct pair *p = malloc(sizeof(struct pair));
	*(uint64_t *)p = 0;
	pthread_mutex_lock(&p->m);
	pthread_mutex_unlock(&p->m);
	free(p);
	return 0;
}

// Each worker publishes a fresh block and frees the one it replaced: the last
// block published is never freed (a leak at the malloc, in every complete
// execution), though the global `shared` still points to it at the end.
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

int *_Atomic shared;

void *worker(void *arg)
{
	int *p = malloc(sizeof(int));
	*p = 1;
	int *old = atomic_exchange(&shared, p);
	if (old)
		free(old);
	return 0;
}

int main(void)
{
	pthread_t t1, t2;
	pthread_create(&t1, 0, worker, 0);
	pthread_create(&t2, 0, worker, 0);
	pthread_join(t1, 0);
	pthread_join(t2, 0);
	return 0;
}

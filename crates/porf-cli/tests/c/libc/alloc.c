/* calloc zeroes its block, realloc(NULL, n) is malloc(n): a thread fills the
 * realloc'd block, main reads it after the join; one complete execution. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

int *zs, *ns;

void *filler(void *arg)
{
	for (int i = 0; i < 3; i++)
		ns[i] = zs[i] + i;
	return NULL;
}

int main(void)
{
	pthread_t t;
	zs = calloc(3, sizeof(int));
	ns = realloc(NULL, 3 * sizeof(int));
	pthread_create(&t, NULL, filler, NULL);
	pthread_join(t, NULL);
	assert(ns[0] == 0 && ns[1] == 1 && ns[2] == 2);
	free(ns);
	free(zs);
	return 0;
}
// expect rc11 sc: safe 1

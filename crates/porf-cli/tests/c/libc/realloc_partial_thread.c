/* The copy of a cell reads whichever write is visible: a thread writes p[1] and is
 * joined before the realloc, so q[1] holds its value; p[0] is never written, and q[0]
 * is written after the realloc. Join orders the thread's write before the copy, so
 * there is exactly one execution, without error. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

int *p;

void *writer(void *arg)
{
	p[1] = 7;
	return NULL;
}

int main(void)
{
	pthread_t t;
	p = malloc(2 * sizeof(int));
	pthread_create(&t, NULL, writer, NULL);
	pthread_join(t, NULL);
	int *q = realloc(p, 3 * sizeof(int));
	q[0] = 1;
	assert(q[0] + q[1] == 8);
	free(q);
	return 0;
}
// expect rc11 sc: safe 1

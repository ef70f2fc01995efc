/* A thread reads the old block while main reallocs it, with no synchronisation:
 * realloc frees the old block, and the reader's load does not happen-before that
 * free in any execution (nothing orders the reader before main), so every execution
 * has an access to freed memory. (The reader's load and the copy's loads are both
 * reads: no race between them.) */
#include <pthread.h>
#include <stdlib.h>

int *data;

void *reader(void *arg)
{
	int *p = arg;
	return (void *)(long)p[0];
}

int main(void)
{
	pthread_t t;
	data = malloc(2 * sizeof(int));
	data[0] = 1;
	data[1] = 2;
	pthread_create(&t, NULL, reader, data);
	data = realloc(data, 4 * sizeof(int));
	pthread_join(t, NULL);
	return 0;
}
// expect rc11 sc: memory "access to freed memory"

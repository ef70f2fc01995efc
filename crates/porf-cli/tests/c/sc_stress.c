/* Long runs of seq_cst accesses to one location: under rc11 every consistency check
 * is a psc check of the whole graph and every read has M candidate sources, so a
 * single read can take seconds. porf stopped far past --timeout on this shape before
 * the time limit was polled before every check. Explores for far longer than any
 * test waits. */
#include <stdatomic.h>
#include <pthread.h>

#ifndef M
#define M 400
#endif

atomic_int x;

void *writer(void *arg)
{
	for (int i = 0; i < M; i++)
		atomic_store(&x, i);
	return NULL;
}

void *reader(void *arg)
{
	for (int i = 0; i < M; i++)
		atomic_load(&x);
	return NULL;
}

int main(void)
{
	pthread_t w, r;
	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&r, NULL, reader, NULL);
	return 0;
}

// Indexing a two-element array with argc + 1 reads past its end: with argc = 1 the
// index is 2. Each worker records into its own slot of a heap array of argc + 1
// slots; main reads slot argc + 1, one past the end.
// porf-expect sc tso ra rc11: memory "out-of-bounds heap access"
#include <stdlib.h>
#include <pthread.h>

int *slots;

void *worker(void *arg)
{
	slots[(long)arg] = 1;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	slots = calloc(argc + 1, sizeof(int));
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return slots[argc + 1];
}

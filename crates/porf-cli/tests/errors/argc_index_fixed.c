// Fixed argc_index.c: main reads the last slot.
// porf-expect sc tso ra rc11: safe
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
	return slots[argc];
}

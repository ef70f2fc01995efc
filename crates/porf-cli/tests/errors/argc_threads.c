// main starts argc + 1 workers that bump a plain counter: with argc = 1 (the program
// name only) two workers race. (porf running main with argc = 0 would see one worker
// and miss the race.)
// porf-expect sc tso ra rc11: race
#include <pthread.h>

int counter;

void *worker(void *arg)
{
	counter++;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[4];
	int n = argc + 1;
	for (int i = 0; i < n && i < 4; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < n && i < 4; i++)
		pthread_join(t[i], NULL);
	return 0;
}

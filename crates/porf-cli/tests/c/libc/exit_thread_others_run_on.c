/* After a thread calls exit, the other threads run on (porf's and GenMC's exit ends
 * the calling thread only): main's unsynchronised read of the flag races with the
 * other worker's write, whichever exits first. */
#include <pthread.h>
#include <stdlib.h>

int flag;

void *quitter(void *arg)
{
	exit(0);
}

void *writer(void *arg)
{
	flag = 1;
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, quitter, NULL);
	pthread_create(&b, NULL, writer, NULL);
	return flag;
}
// expect rc11 sc: race

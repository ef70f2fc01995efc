/* exit in a thread other than main's: porf models exit as main's return only, so
 * this is unsupported input (exit code 3). */
#include <pthread.h>
#include <stdlib.h>

void *worker(void *arg)
{
	exit(1);
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	return 0;
}
// expect rc11 sc: rejected "exit() in a thread other than main"

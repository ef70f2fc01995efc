/* A thread copies into buf while main measures it, with no synchronisation: the
 * non-atomic char accesses race. */
#include <pthread.h>
#include <string.h>

char buf[4];

void *copier(void *arg)
{
	strcpy(buf, "ab");
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, copier, NULL);
	size_t n = strlen(buf);
	pthread_join(t, NULL);
	return (int)n;
}
// expect rc11 sc: race

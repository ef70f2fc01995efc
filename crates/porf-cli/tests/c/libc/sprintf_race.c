// sprintf's stores are plain char stores: a thread formatting into a global buffer
// while another reads it, with no synchronisation, is a data race.
// expect rc11 sc: race
#include <pthread.h>
#include <stdio.h>

char msg[16];

static void *writer(void *arg)
{
	sprintf(msg, "%d", 7);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, writer, NULL);
	char c = msg[0];
	pthread_join(t, NULL);
	return c == '7';
}

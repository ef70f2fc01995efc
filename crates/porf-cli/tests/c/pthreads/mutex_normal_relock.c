// A normal (default) mutex is not recursive: a re-lock by the owner waits for itself.
// expect rc11 sc: deadlock "re-lock"
#include <pthread.h>

pthread_mutex_t m;

int main(void)
{
	pthread_mutex_init(&m, 0);
	pthread_mutex_lock(&m);
	pthread_mutex_lock(&m);
	return 0;
}

// The program ignores EDEADLK from an error-checking mutex and unlocks twice: the
// second unlock returns EPERM, which the assertion catches.
// expect rc11 sc: assertion
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP;

int main(void)
{
	pthread_mutex_lock(&m);
	pthread_mutex_lock(&m);
	assert(pthread_mutex_unlock(&m) == 0);
	assert(pthread_mutex_unlock(&m) == 0);
	return 0;
}

// main locks the mutex and a helper thread unlocks it on main's behalf: the helper
// does not hold it (GenMC's tests/wrong/locking/diff-thread-unlock has the same bug).
// porf-expect sc tso ra rc11: lock "invalid unlock"
#include <pthread.h>

pthread_mutex_t m;

void *helper(void *arg)
{
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_mutex_lock(&m);
	pthread_create(&t, NULL, helper, NULL);
	pthread_join(t, NULL);
	return 0;
}

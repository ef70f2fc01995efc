// Fixed unlock_other_thread.c: main unlocks its own mutex after the join.
// porf-expect sc tso ra rc11: safe
#include <pthread.h>

pthread_mutex_t m;

void *helper(void *arg)
{
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_mutex_lock(&m);
	pthread_create(&t, NULL, helper, NULL);
	pthread_join(t, NULL);
	pthread_mutex_unlock(&m);
	return 0;
}

// Fixed double_unlock.c: the error path returns after its unlock.
// porf-expect sc tso ra rc11: safe
#include <pthread.h>
#include <stdatomic.h>

pthread_mutex_t m;
atomic_int failed;
int items;

void *worker(void *arg)
{
	pthread_mutex_lock(&m);
	items++;
	if (atomic_load(&failed)) {
		pthread_mutex_unlock(&m);
		return NULL;
	}
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;
	pthread_create(&t1, NULL, worker, NULL);
	pthread_create(&t2, NULL, worker, NULL);
	atomic_store(&failed, 1);
	return 0;
}

// Fixed lock_destroyed.c: the mutex is destroyed after both threads are joined.
// porf-expect sc tso ra rc11: safe
#include <pthread.h>
#include <stdatomic.h>

pthread_mutex_t m;
atomic_int done;

void *closer(void *arg)
{
	atomic_store_explicit(&done, 1, memory_order_release);
	return NULL;
}

void *user(void *arg)
{
	if (atomic_load_explicit(&done, memory_order_acquire)) {
		pthread_mutex_lock(&m);
		pthread_mutex_unlock(&m);
	}
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;
	pthread_mutex_init(&m, NULL);
	pthread_create(&t1, NULL, closer, NULL);
	pthread_create(&t2, NULL, user, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	pthread_mutex_destroy(&m);
	return 0;
}

// A thread destroys the mutex and signals; the other thread sees the signal and locks
// the destroyed mutex (as GenMC's tests/wrong/locking/destroyed-mutex).
// porf-expect sc tso ra rc11: memory "lock of a destroyed mutex"
#include <pthread.h>
#include <stdatomic.h>

pthread_mutex_t m;
atomic_int done;

void *closer(void *arg)
{
	pthread_mutex_destroy(&m);
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
	return 0;
}

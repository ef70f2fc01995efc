// A thread that ends inside an atomic section is an error (the section never closes).
// expect sc: rejected "finishes inside the atomic section opened at"
#include <pthread.h>

int x;

void *worker(void *arg)
{
	__VERIFIER_atomic_begin();
	x = 1;
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, worker, 0);
	pthread_join(t, 0);
	return 0;
}

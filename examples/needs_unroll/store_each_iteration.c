// A wait loop whose failed iteration stores to a shared location: another thread may
// read that store, so the iteration has an effect and spin-assume repeats it; the loop
// needs --unroll.
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag, waiting;

void *setter(void *arg)
{
	atomic_store(&flag, 1);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, setter, 0);
	while (!atomic_load(&flag))
		atomic_store(&waiting, 1);
	pthread_join(t, 0);
	return 0;
}

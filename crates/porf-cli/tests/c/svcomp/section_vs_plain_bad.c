// section_vs_plain.c without the section markers: main may read the intermediate 1
// (3 complete executions: 0, 1, 2), and the assertion fails.
// expect sc: assertion "r != 1"
// expect sc | --keep-going: assertion "r != 1"
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int x;

void *writer(void *arg)
{
	atomic_store(&x, 1);
	atomic_store(&x, 2);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, writer, 0);
	int r = atomic_load(&x);
	assert(r != 1);
	pthread_join(t, 0);
	return 0;
}

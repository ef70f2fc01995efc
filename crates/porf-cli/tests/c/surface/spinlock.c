// Two threads increment a counter under a spin lock: the lock acquisitions come in
// either order, 2 executions, and the counter ends at 2.
// expect rc11 sc: safe 2
#include <assert.h>
#include <pthread.h>

pthread_spinlock_t l;
int counter;

static void *inc(void *arg)
{
	pthread_spin_lock(&l);
	counter++;
	pthread_spin_unlock(&l);
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_spin_init(&l, PTHREAD_PROCESS_PRIVATE);
	pthread_create(&a, 0, inc, 0);
	pthread_create(&b, 0, inc, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(counter == 2);
	return 0;
}

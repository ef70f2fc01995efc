// One thread forgets the spin lock: its increment races with the other's.
// expect rc11 sc: race
#include <pthread.h>

pthread_spinlock_t l;
int counter;

static void *locked(void *arg)
{
	pthread_spin_lock(&l);
	counter++;
	pthread_spin_unlock(&l);
	return 0;
}

static void *unlocked(void *arg)
{
	counter++;
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_spin_init(&l, PTHREAD_PROCESS_PRIVATE);
	pthread_create(&a, 0, locked, 0);
	pthread_create(&b, 0, unlocked, 0);
	return 0;
}

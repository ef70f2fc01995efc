// Accesses inside atomic sections are atomic (they do not race with each other), but
// a plain access of another thread outside any section still races with them
// (SV-COMP's no-data-race: not both accesses atomic).
// expect sc: race
#include <pthread.h>

int x;

void *writer(void *arg)
{
	__VERIFIER_atomic_begin();
	x = 1;
	__VERIFIER_atomic_end();
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, writer, 0);
	int r = x;
	pthread_join(t, 0);
	return r;
}

// A data race that only some executions show (the plain write happens when the
// relaxed read saw 2), after several branching threads; the race's witness names
// threads, whose ids must not depend on --threads.
#include <pthread.h>
#include <stdatomic.h>

atomic_int x;
int plain;

void *w(void *a)
{
	atomic_store_explicit(&x, (int)(long)a, memory_order_relaxed);
	return 0;
}

void *r(void *a)
{
	if (atomic_load_explicit(&x, memory_order_relaxed) == 2)
		plain = 1;
	return 0;
}

int main()
{
	pthread_t t[6];
	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], 0, w, (void *)(i + 1));
	pthread_create(&t[4], 0, r, 0);
	pthread_create(&t[5], 0, r, 0);
	for (int i = 0; i < 6; i++)
		pthread_join(t[i], 0);
	return 0;
}

// The fixed variant of goto_past_init.c: the local is declared before the jump.
// porf-expect ALL: safe
#include <pthread.h>
#include <stdatomic.h>

atomic_int ready;
int out;

void *t(void *a)
{
	atomic_store_explicit(&ready, 1, memory_order_release);
	return 0;
}

int main()
{
	pthread_t th;
	int limit = 4;
	pthread_create(&th, 0, t, 0);
	if (atomic_load_explicit(&ready, memory_order_acquire))
		goto done;
	out = 1;
done:
	out = limit;
	pthread_join(th, 0);
	return 0;
}

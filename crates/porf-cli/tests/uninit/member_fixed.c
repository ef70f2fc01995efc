// The fixed variant of member.c: the copy reads only the member that was written.
// porf-expect ALL: safe
#include <pthread.h>
#include <stdatomic.h>

struct node {
	int key;
	struct node *next;
};

atomic_int seen;

void *t(void *a)
{
	struct node n;
	n.key = atomic_load_explicit(&seen, memory_order_acquire);
	struct node c = n;
	if (c.key != 0)
		atomic_store_explicit(&seen, 2, memory_order_release);
	return 0;
}

int main()
{
	pthread_t th;
	pthread_create(&th, 0, t, 0);
	atomic_store_explicit(&seen, 1, memory_order_release);
	pthread_join(th, 0);
	return 0;
}

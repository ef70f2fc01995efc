// A struct member never written: copying the struct is allowed (its value is not a
// trap, C11 6.2.6.1p6), reading the member of the copy is a read of an indeterminate
// value. Each thread reads its own local.
// porf-expect ALL: memory "read of an uninitialised local variable `c.next`"
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
	if (c.next != 0)
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

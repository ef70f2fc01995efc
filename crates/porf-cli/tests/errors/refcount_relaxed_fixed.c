// Fixed refcount_relaxed.c: release decrements and an acquire fence before the free
// (the pattern of std::shared_ptr): every owner's accesses happen before the free.
// porf-expect sc tso ra rc11: safe
#include <stdlib.h>
#include <pthread.h>
#include <stdatomic.h>

struct obj {
	atomic_int refs;
	int a;
	int b;
};

struct obj *o;

void release(void)
{
	if (atomic_fetch_sub_explicit(&o->refs, 1, memory_order_release) == 1) {
		atomic_thread_fence(memory_order_acquire);
		free(o);
	}
}

void *owner_a(void *arg)
{
	o->a = 1;
	release();
	return NULL;
}

void *owner_b(void *arg)
{
	o->b = 2;
	release();
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;
	o = malloc(sizeof(struct obj));
	atomic_init(&o->refs, 2);
	pthread_create(&t1, NULL, owner_a, NULL);
	pthread_create(&t2, NULL, owner_b, NULL);
	return 0;
}

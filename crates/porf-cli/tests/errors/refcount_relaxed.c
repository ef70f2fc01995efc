// Reference counting with relaxed decrements: the last owner frees the object, but
// the other owner's accesses need not happen before the free under C11 (a relaxed
// RMW chain does not synchronise). SC and TSO order every access by its reads-from.
// porf-expect ra rc11: memory "access to freed memory"
// porf-expect sc tso: safe
#include <stdlib.h>
#include <pthread.h>
#include <stdatomic.h>

struct obj {
	atomic_int refs;
	int a;
	int b;
};

struct obj *o;

void *owner_a(void *arg)
{
	o->a = 1;
	if (atomic_fetch_sub_explicit(&o->refs, 1, memory_order_relaxed) == 1)
		free(o);
	return NULL;
}

void *owner_b(void *arg)
{
	o->b = 2;
	if (atomic_fetch_sub_explicit(&o->refs, 1, memory_order_relaxed) == 1)
		free(o);
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

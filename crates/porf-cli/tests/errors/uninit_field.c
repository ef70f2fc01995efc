// A node's second field is never written before another thread reads it: malloc'd
// memory holds no value until written (GenMC: "read from uninitialized memory").
// porf-expect sc tso ra rc11: memory "read of uninitialised memory"
#include <stdlib.h>
#include <pthread.h>
#include <stdatomic.h>

struct node {
	int key;
	struct node *next;
};

_Atomic(struct node *) head;

void *reader(void *arg)
{
	struct node *n = atomic_load_explicit(&head, memory_order_acquire);
	if (n && n->next)
		return n->next;
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, reader, NULL);
	struct node *n = malloc(sizeof(struct node));
	n->key = 1;
	atomic_store_explicit(&head, n, memory_order_release);
	pthread_join(t, NULL);
	return 0;
}

// Fixed uninit_field.c: every field is written before the node is published.
// porf-expect sc tso ra rc11: safe
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
	n->next = NULL;
	atomic_store_explicit(&head, n, memory_order_release);
	pthread_join(t, NULL);
	return 0;
}

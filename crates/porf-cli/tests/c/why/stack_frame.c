// A local handed to another thread through a pointer: the reader may use it after
// publish() returned and its frame was released (issue 26, item 2).
#include <pthread.h>
#include <stdatomic.h>
struct node { int val; struct node *next; };
struct node *_Atomic shared;
void *reader(void *a) {
	struct node *n = atomic_load_explicit(&shared, memory_order_acquire);
	if (n)
		return (void *)(long)n->val;
	return 0;
}
void publish(void) {
	struct node node;
	node.val = 1; node.next = 0;
	atomic_store_explicit(&shared, &node, memory_order_release);
}
void *worker(void *a) {
	publish();
	return 0;
}
int main(void) { pthread_t a, b; pthread_create(&a, 0, worker, 0); pthread_create(&b, 0, reader, 0); return 0; }

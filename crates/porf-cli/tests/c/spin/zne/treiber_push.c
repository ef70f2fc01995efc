// N threads (default 2) push a node each onto a Treiber stack (load top, store it
// into the thread's own node, compare-exchange, retry); main sums the stack. With
// -DBUG the first thread publishes its node with a plain store instead of the
// compare-exchange: a concurrent push can be lost, and the sum is short.
#include <stdatomic.h>
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

#ifndef N
#define N 2
#endif

struct node {
	int v;
	_Atomic(struct node *) next;
};
_Atomic(struct node *) top;

void *pusher(void *arg)
{
	long i = (long)arg;
	struct node *n = malloc(sizeof *n), *t;
	n->v = i + 1;
#ifdef BUG
	if (i == 0) {
		t = atomic_load_explicit(&top, memory_order_acquire);
		atomic_store_explicit(&n->next, t, memory_order_relaxed);
		atomic_store_explicit(&top, n, memory_order_release);
		return 0;
	}
#endif
	do {
		t = atomic_load_explicit(&top, memory_order_acquire);
		atomic_store_explicit(&n->next, t, memory_order_relaxed);
	} while (!atomic_compare_exchange_strong_explicit(&top, &t, n, memory_order_release,
							  memory_order_relaxed));
	return 0;
}

int main(void)
{
	pthread_t t[N];
	for (long i = 0; i < N; i++)
		pthread_create(&t[i], 0, pusher, (void *)i);
	for (int i = 0; i < N; i++)
		pthread_join(t[i], 0);
	int sum = 0;
	for (struct node *p = atomic_load(&top); p; p = atomic_load(&p->next))
		sum += p->v;
	assert(sum == N * (N + 1) / 2);
	return 0;
}

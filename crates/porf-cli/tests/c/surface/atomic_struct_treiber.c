// The ABA fix of the Treiber stack: the top of the stack is an `_Atomic` struct of a
// pointer and a tag (16 bytes), and every successful compare-exchange increments the
// tag, so a pop whose top was popped and pushed back in between (the ABA schedule:
// thread 1 reads top = {A, t}; main pops A, pops B, pushes A back: top = {A, t + 3})
// fails and retries. The 16-byte compare-exchange is one event comparing pointer and
// tag together. Checked: every node ends in exactly one place (held by thread 1,
// held by main, or in the stack). atomic_struct_treiber_aba.c is the same stack
// without the tag, where the ABA schedule breaks it.
// The counts, 16 complete executions under sc, rc11 and tso, are those of porf's
// reference explorer (--explorer reference: every interleaving with every rf and co
// choice, deduplicated), which this file also checks.
// expect sc rc11 tso: safe 16
// expect sc rc11 tso | --explorer reference: safe 16
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

struct node { _Atomic(struct node *) next; };
struct tagged { struct node *ptr; uintptr_t tag; };

#define TAG 1

_Atomic struct tagged top;
struct node A, B;

struct node *pop(void)
{
	struct tagged old = atomic_load(&top);
	for (;;) {
		if (old.ptr == 0)
			return 0;
		struct tagged new = { atomic_load(&old.ptr->next), old.tag + TAG };
		if (atomic_compare_exchange_strong(&top, &old, new))
			return old.ptr;
	}
}

void push(struct node *n)
{
	struct tagged old = atomic_load(&top);
	for (;;) {
		atomic_store(&n->next, old.ptr);
		struct tagged new = { n, old.tag + TAG };
		if (atomic_compare_exchange_strong(&top, &old, new))
			return;
	}
}

struct node *got1;

void *t1(void *arg)
{
	got1 = pop();
	return 0;
}

int main(void)
{
	atomic_init(&A.next, &B);
	atomic_init(&B.next, 0);
	struct tagged init = { &A, 0 };
	atomic_init(&top, init);
	pthread_t t;
	pthread_create(&t, 0, t1, 0);
	struct node *x = pop();
	struct node *y = pop();
	if (x)
		push(x);
	pthread_join(t, 0);
	/* Every node is in exactly one place: held by t1 (got1), held by main (y; x was
	 * pushed back), or in the stack. */
	int seen_a = (got1 == &A) + (y == &A), seen_b = (got1 == &B) + (y == &B);
	struct tagged fin = atomic_load(&top);
	for (struct node *n = fin.ptr; n; n = atomic_load(&n->next)) {
		seen_a += n == &A;
		seen_b += n == &B;
		assert(seen_a <= 1 && seen_b <= 1);
	}
	assert(seen_a == 1 && seen_b == 1);
	return 0;
}

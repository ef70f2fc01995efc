// atomic_struct_treiber.c without the tag's increments: the compare-exchange of
// {pointer, 0} cannot tell a top that was popped and pushed back from the one it read.
// The ABA schedule (thread 1 reads top = A and A's next = B; main pops A, pops B and
// pushes A back; thread 1's compare-exchange then succeeds and sets top to B, which
// main holds) leaves B both held by main and in the stack: the assertion in the walk
// of the final stack fails.
// expect sc rc11 tso: assertion "seen_a <= 1 && seen_b <= 1"
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

struct node { _Atomic(struct node *) next; };
struct tagged { struct node *ptr; uintptr_t tag; };

#define TAG 0

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

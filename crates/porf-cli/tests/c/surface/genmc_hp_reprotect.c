// A hazard pointer protects only the last pointer given to it (GenMC's rule): the
// reader protects n with hp, then protects another node with the same hp, and then
// reads n->val. By hand: when its first protect reads n, that read is not protected
// any more, and the writer's retire of n is unordered with it: access to freed
// memory.
// expect: memory "access to freed memory"
#include <assert.h>
#include <genmc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct node {
	int val;
};
_Atomic(struct node *) shared;
_Atomic(struct node *) other;

static void *reader(void *arg)
{
	__VERIFIER_hp_t *hp = __VERIFIER_hp_alloc();
	struct node *n = __VERIFIER_hp_protect(hp, &shared);
	(void)__VERIFIER_hp_protect(hp, &other);
	if (n)
		assert(n->val == 1);
	__VERIFIER_hp_free(hp);
	return NULL;
}

int main(void)
{
	struct node *o = malloc(sizeof(*o));
	o->val = 2;
	atomic_store(&other, o);
	pthread_t t;
	pthread_create(&t, NULL, reader, NULL);
	struct node *n = malloc(sizeof(*n));
	n->val = 1;
	atomic_store_explicit(&shared, n, memory_order_release);
	struct node *old = atomic_exchange(&shared, NULL);
	if (old)
		__VERIFIER_hp_retire(old);
	return 0;
}

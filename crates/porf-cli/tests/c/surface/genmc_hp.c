// GenMC's hazard pointers (genmc.h, as GenMC 0.11 checks them): an access protected
// by a hazard pointer is not an access to freed memory because of a
// `__VERIFIER_hp_retire` of its block. By hand: the writer publishes node n (release
// store) and then takes it back (exchange to NULL, reading n: atomicity) and retires
// it. The reader's protect is an acquire load of `shared`: it reads NULL (the
// initialisation), n, or the exchange's NULL: 3 executions (same under sc: the load
// comes before the store, between store and exchange, or after). Reading n, it reads
// n->val (1: the store hb-before it through release/acquire; the assertion holds)
// after protecting n, so
// the retire, unordered with that access, is no error.
// expect: safe 3
#include <assert.h>
#include <genmc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct node {
	int val;
};
_Atomic(struct node *) shared;

static void *reader(void *arg)
{
	__VERIFIER_hp_t *hp = __VERIFIER_hp_alloc();
	struct node *n = __VERIFIER_hp_protect(hp, &shared);
	if (n)
		assert(n->val == 1);
	__VERIFIER_hp_clear(hp);
	__VERIFIER_hp_free(hp);
	return NULL;
}

int main(void)
{
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

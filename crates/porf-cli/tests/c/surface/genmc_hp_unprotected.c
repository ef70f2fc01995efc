// A retire does not excuse an access no hazard pointer protects: the reader of
// genmc_hp.c, loading the pointer without protecting it. By hand: when the load reads
// n, the reader's read of n->val and the writer's retire of n are unordered by
// happens-before (nothing orders the retire after the read), so the read is an access
// to freed memory (GenMC: "Attempted to access freed memory").
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

static void *reader(void *arg)
{
	struct node *n = atomic_load_explicit(&shared, memory_order_acquire);
	if (n)
		assert(n->val == 1);
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

// A correct final write: main's store of 2 happens before the child's final store
// (the spawn orders it), and no write follows. The CAS variant likewise: the child's
// CAS can only read main's 2 (hb-latest; nothing else writes y), succeeds, and its
// write of 3 is final, with main's store hb-before it. By hand: 1 execution, no
// error.
// expect: safe 1
#include <genmc.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x;
atomic_int y;

static void *child(void *arg)
{
	__VERIFIER_final_write(atomic_store(&x, 1));
	int e = 2;
	(void)__VERIFIER_final_CAS(atomic_compare_exchange_strong(&y, &e, 3));
	return NULL;
}

int main(void)
{
	atomic_store(&x, 2);
	atomic_store(&y, 2);
	pthread_t t;
	pthread_create(&t, NULL, child, NULL);
	pthread_join(t, NULL);
	return 0;
}

// Readers share the lock: the child takes a read lock and, holding it, spins until
// main, also holding a read lock, sets a flag (if readers excluded each other this
// would never complete). Complete executions need the child's flag load to read 1
// (a first iteration reading 0 is blocked by spin-assume). By hand, over the
// modification order of the lock state's RMWs (M+/M- main's acquire/release, C+/C-
// the child's; a reader first expects 0 and retries with the count a failed attempt
// read):
// (a) M+ M- C+ C-: C+ reads M- directly, or fails on M+ (1), then fails on M- (0)
//     and succeeds on M-: 2;
// (b) M+ C+ then {M-, C-} in either order: C+ fails on M+ (1) and succeeds expecting
//     1: 2;
// (c) C+ M+ then {M-, C-} in either order: M+ fails on C+ and succeeds expecting 1: 2.
// Total 6.
// expect rc11 sc: safe 6
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
atomic_int flag;

static void *child(void *arg)
{
	pthread_rwlock_rdlock(&l);
	while (!atomic_load(&flag))
		;
	pthread_rwlock_unlock(&l);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, child, 0);
	pthread_rwlock_rdlock(&l);
	atomic_store(&flag, 1);
	pthread_rwlock_unlock(&l);
	pthread_join(t, 0);
	return 0;
}

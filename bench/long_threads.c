/* Long threads (issue 13): two threads each do N seq_cst stores and loads of their
 * own location, then one seq_cst store and load of a shared location `s`.
 *
 * Executions, for every N and every model (sc, tso, rc11 ...): only the accesses of
 * `s` can read or be ordered differently (each thread's own loads can only read its
 * own po-latest store: anything else is a coherence violation). co of `s` has two
 * orders; say W1 -> W2 (W1 = t1's store). t2's load must read W2 (W1 is co-before W2,
 * which is po-before the load: reading W1 is a coherence violation), and t1's load
 * reads W1 or W2 — both consistent even under SC (interleave t1 entirely before t2,
 * or W1, W2 then both loads). Symmetrically for W2 -> W1: 2 + 2 = 4 executions.
 *
 * The point is the per-event cost: a checker whose work per event grows with the
 * length of a thread is quadratic or worse in N. Size: -DN=<iterations> (default 50).
 * -DFENCES adds a seq_cst fence after each store of the loops (the executions stay the
 * same four: each is sequentially consistent), for the cost of the seq_cst check with
 * fences under rc11. */
#include <stdatomic.h>
#include <pthread.h>

#ifndef N
#define N 50
#endif

#ifdef FENCES
#define SC_FENCE() atomic_thread_fence(memory_order_seq_cst)
#else
#define SC_FENCE() ((void)0)
#endif

atomic_int a, b, s;

void *t1(void *arg)
{
	for (int i = 0; i < N; i++) {
		atomic_store(&a, i);
		SC_FENCE();
		(void)atomic_load(&a);
	}
	atomic_store(&s, 1);
	(void)atomic_load(&s);
	return NULL;
}

void *t2(void *arg)
{
	for (int i = 0; i < N; i++) {
		atomic_store(&b, i);
		SC_FENCE();
		(void)atomic_load(&b);
	}
	atomic_store(&s, 2);
	(void)atomic_load(&s);
	return NULL;
}

int main(void)
{
	pthread_t p, q;
	pthread_create(&p, NULL, t1, NULL);
	pthread_create(&q, NULL, t2, NULL);
	pthread_join(p, NULL);
	pthread_join(q, NULL);
	return 0;
}

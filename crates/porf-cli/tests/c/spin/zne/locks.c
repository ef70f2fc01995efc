// N threads (default 2) take one lock, increment a counter inside, give it back;
// main checks the counter. The lock is chosen with -D: TAS (atomic_flag_test_and_set),
// XCHG (atomic_exchange), CAS (compare-exchange retry), TRYLOCK
// (pthread_mutex_trylock). With -DBUG the first thread gives the lock back between
// the counter's load and store: a lost update, the assertion fails.
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>

#ifndef N
#define N 2
#endif

atomic_flag fl = ATOMIC_FLAG_INIT;
atomic_int lk;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
atomic_int c;

static void acquire(void)
{
#if defined(TAS)
	while (atomic_flag_test_and_set_explicit(&fl, memory_order_acquire))
		;
#elif defined(XCHG)
	while (atomic_exchange_explicit(&lk, 1, memory_order_acquire))
		;
#elif defined(CAS)
	int e = 0;
	while (!atomic_compare_exchange_strong_explicit(&lk, &e, 1, memory_order_acquire,
							memory_order_relaxed))
		e = 0;
#elif defined(TRYLOCK)
	while (pthread_mutex_trylock(&m) != 0)
		;
#else
#error "choose a lock: -DTAS, -DXCHG, -DCAS or -DTRYLOCK"
#endif
}

static void release(void)
{
#if defined(TAS)
	atomic_flag_clear_explicit(&fl, memory_order_release);
#elif defined(TRYLOCK)
	pthread_mutex_unlock(&m);
#else
	atomic_store_explicit(&lk, 0, memory_order_release);
#endif
}

void *worker(void *arg)
{
	acquire();
	int r = atomic_load_explicit(&c, memory_order_relaxed);
#ifdef BUG
	if (arg == 0)
		release();
#endif
	atomic_store_explicit(&c, r + 1, memory_order_relaxed);
#ifdef BUG
	if (arg != 0)
#endif
		release();
	return 0;
}

int main(void)
{
	pthread_t t[N];
	for (long i = 0; i < N; i++)
		pthread_create(&t[i], 0, worker, (void *)i);
	for (int i = 0; i < N; i++)
		pthread_join(t[i], 0);
	assert(atomic_load_explicit(&c, memory_order_relaxed) == N);
	return 0;
}

/* Dekker-style mutual exclusion without fences: each thread raises its flag and
 * enters if the other's flag is down. Correct under sc, broken under tso (store
 * buffering), ra and rc11. Add atomic_thread_fence(memory_order_seq_cst) after each
 * store to repair it. */
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>

atomic_int flag0, flag1;
atomic_int in_critical;

void *t0(void *arg)
{
	atomic_store_explicit(&flag0, 1, memory_order_relaxed);
	if (atomic_load_explicit(&flag1, memory_order_relaxed) == 0) {
		in_critical++;
		assert(in_critical == 1);
		in_critical--;
	}
	return NULL;
}

void *t1(void *arg)
{
	atomic_store_explicit(&flag1, 1, memory_order_relaxed);
	if (atomic_load_explicit(&flag0, memory_order_relaxed) == 0) {
		in_critical++;
		assert(in_critical == 1);
		in_critical--;
	}
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, t0, NULL);
	pthread_create(&b, NULL, t1, NULL);
	return 0;
}

// Message passing with an acquire barrier (`dmb ishld`, read as an acquire fence) in
// the reader only: without a release in the writer nothing synchronises, so under
// rc11 the reader may see flag = 1 and then data = 0 (assertion failure). Under tso
// and sc the writer's stores stay in order: flag read 0, or flag 1 then data 1: 2
// executions.
// expect rc11: assertion
// expect tso sc: safe 2
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int data, flag;

static void *writer(void *arg)
{
	atomic_store_explicit(&data, 1, memory_order_relaxed);
	atomic_store_explicit(&flag, 1, memory_order_relaxed);
	return 0;
}

static void *reader(void *arg)
{
	if (atomic_load_explicit(&flag, memory_order_relaxed)) {
		asm volatile("dmb ishld" ::: "memory");
		assert(atomic_load_explicit(&data, memory_order_relaxed) == 1);
	}
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, writer, 0);
	pthread_create(&b, 0, reader, 0);
	return 0;
}

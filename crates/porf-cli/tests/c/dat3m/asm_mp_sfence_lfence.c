// Message passing with x86 `sfence` in the writer and `lfence` in the reader, read as
// a release and an acquire fence. rc11: the fences synchronise when the reader sees
// flag = 1, so it then reads data = 1; tso and sc: stores and loads keep their order;
// pso: the release fence is the store-store barrier. Executions: flag read 0 (data not
// read), or flag read 1 and data read 1: 2.
// expect rc11 tso pso sc: safe 2
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int data, flag;

static void *writer(void *arg)
{
	atomic_store_explicit(&data, 1, memory_order_relaxed);
	asm volatile("sfence" ::: "memory");
	atomic_store_explicit(&flag, 1, memory_order_relaxed);
	return 0;
}

static void *reader(void *arg)
{
	if (atomic_load_explicit(&flag, memory_order_relaxed)) {
		asm volatile("lfence" ::: "memory");
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

// GenMC's wrong/memory/stack-uninit2 in porf's words: thread_1 publishes &x with a
// relaxed store, so under rc11 nothing makes x's allocation (thread_1's entry)
// happen-before thread_2's access through the pointer: an access to memory not
// (yet) allocated from thread_2's point of view (GenMC: "Attempt to access
// non-allocated memory"). Under sc the publication synchronises, but thread_1 may
// return before thread_2's access: use after free. Both models report a memory error.
// expect rc11: memory "non-allocated"
// expect sc: memory
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

_Atomic(atomic_int *) p;

void *thread_1(void *unused)
{
	atomic_int x;
	atomic_store_explicit(&x, 42, memory_order_relaxed);
	atomic_store_explicit(&p, &x, memory_order_relaxed);
	return NULL;
}

void *thread_2(void *unused)
{
	atomic_int *q;
	while ((q = atomic_load(&p)) == NULL)
		;
	int r = atomic_load_explicit(q, memory_order_relaxed);
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;
	pthread_create(&t1, NULL, thread_1, NULL);
	pthread_create(&t2, NULL, thread_2, NULL);
	return 0;
}

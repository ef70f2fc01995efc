// GenMC's wrong/memory/stack-uninit in porf's words: thread_1 publishes the address
// of its uninitialised local x and waits; thread_2 reads x through the pointer before
// anyone wrote it (GenMC: "Attempt to read from uninitialized memory"). A local whose
// address reaches another thread is uninitialised until written, like malloc'ed
// memory, under both models.
// expect rc11 sc: memory "read of an uninitialised local variable `x`"
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

_Atomic(int *) p;
atomic_bool done;

void *thread_1(void *unused)
{
	int x;
	p = &x;
	while (!done)
		;
	return NULL;
}

void *thread_2(void *unused)
{
	int *q;
	while ((q = p) == NULL)
		;
	int r = *q;
	done = 1;
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;
	pthread_create(&t1, NULL, thread_1, NULL);
	pthread_create(&t2, NULL, thread_2, NULL);
	return 0;
}

// GenMC's wrong/memory/stack-freed in porf's words: thread1 publishes the address of
// its local x and returns, which ends x's lifetime; thread2 writes through the
// published pointer. In the execution where thread2 reads the pointer after thread1
// returned, the write accesses freed memory (GenMC: "Attempt to access freed
// memory"), under both models.
// expect rc11 sc: memory "freed"
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

_Atomic(int *) p;

void *thread1(void *unused)
{
	int x = 0;
	p = &x;
	return NULL;
}

void *thread2(void *unused)
{
	int *q = p;
	if (q != NULL)
		*q = 42;
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;
	pthread_create(&t1, NULL, thread1, NULL);
	pthread_create(&t2, NULL, thread2, NULL);
	return 0;
}

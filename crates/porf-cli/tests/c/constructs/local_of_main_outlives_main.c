// main publishes the address of its local x and returns without joining. Returning
// from main ends a C program (exit), so no thread can see main's locals die: porf
// never frees main's own locals, and the reader's write through the pointer is no
// error. The reader's load of p reads NULL or &x: two executions. (main's store of x's
// initial value is before its seq_cst store of p, which the reader's seq_cst load
// reads: no race.)
// expect rc11 sc: safe 2
#include <pthread.h>
#include <stdatomic.h>

_Atomic(int *) p;

void *reader(void *arg)
{
	int *q = atomic_load(&p);
	if (q)
		*q = 1;
	return 0;
}

int main(void)
{
	pthread_t t;
	int x = 0;
	pthread_create(&t, 0, reader, 0);
	atomic_store(&p, &x);
	return 0;
}

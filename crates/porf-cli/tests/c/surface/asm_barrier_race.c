// An empty asm with a "memory" clobber is a compiler barrier: it orders nothing
// between threads, so plain message passing through it still races.
// expect rc11 sc: race
#include <pthread.h>

int data, flag;

static void *writer(void *arg)
{
	data = 1;
	asm volatile("" ::: "memory");
	flag = 1;
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, writer, 0);
	if (flag)
		return data;
	return 0;
}

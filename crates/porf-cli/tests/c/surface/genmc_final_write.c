// GenMC's final-write annotation: every other write to the location of a final write
// must happen before it, else an annotation error (GenMC's wrong/helper/final0 has
// this shape: two threads, one final write, unordered). By hand: the two stores to x
// are unordered by happens-before, so whichever comes first, the other write does not
// happen before the final one.
// expect: assertion "annotation error"
#include <genmc.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x;

static void *final_writer(void *arg)
{
	__VERIFIER_final_write(x = 1);
	return NULL;
}

static void *writer(void *arg)
{
	x = 2;
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, final_writer, NULL);
	pthread_create(&b, NULL, writer, NULL);
	return 0;
}

// GenMC's final-write annotation (`__VERIFIER_final_write`, with -helper: a final
// write's location has no other store unordered with it, else "Annotation error") is
// not checked by porf: an execution that reaches one is an "unsupported" error, never
// an annotation ignored in silence (GenMC's own test wrong/helper/final0 has the same
// shape: two threads, one final write).
// expect: rejected "`__VERIFIER_final_write` (GenMC's final-write annotation) is not supported"
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

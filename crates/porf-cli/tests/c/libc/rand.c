// rand is porf's deterministic stand-in: C11's sample generator (7.22.2.2p5,
// next = next * 1103515245 + 12345; (next / 65536) % 32768), seeded with 1 until
// srand, one sequence per thread. The values below are that formula's, worked out by
// hand: seed 1 gives 16838, 5758, 10113; seed 42 gives 19081. A second thread starts
// from seed 1 whatever main did, and rand_r steps its caller's seed. The program's
// answers do not depend on the interleaving: 1 execution (the two threads share
// nothing but the spawn and join).
// expect rc11 sc: safe 1
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

static void *other(void *arg)
{
	assert(rand() == 16838);
	return NULL;
}

int main(void)
{
	assert(RAND_MAX == 32767);
	assert(rand() == 16838 && rand() == 5758 && rand() == 10113);
	srand(42);
	assert(rand() == 19081);
	srand(1);
	assert(rand() == 16838);
	unsigned int seed = 42;
	assert(rand_r(&seed) == 19081 && rand() == 5758);
	pthread_t t;
	pthread_create(&t, NULL, other, NULL);
	pthread_join(t, NULL);
	return 0;
}

// Floating addition is not associative, so the order of two critical sections shows
// in the result. x starts at 1e16; one thread adds 1.0, the other -1e16. In binary64
// the spacing of doubles at 1e16 is 2 (2^53 <= 1e16 < 2^54), so 1e16 + 1 is a tie
// between 1e16 and 1e16 + 2 and rounds to the even significand, 1e16 (5e15 * 2):
// adding 1.0 first gives (1e16 + 1) - 1e16 = 0.0, subtracting first gives
// (1e16 - 1e16) + 1 = 1.0. Both values are possible (two executions, one per lock
// order); only 0.0 and 1.0 are.
// expect: safe 2
// expect | -D ONLY_ONE: assertion
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
double x = 1e16;

void *add_one(void *arg)
{
	pthread_mutex_lock(&m);
	x += 1.0;
	pthread_mutex_unlock(&m);
	return 0;
}

void *sub_big(void *arg)
{
	pthread_mutex_lock(&m);
	x -= 1e16;
	pthread_mutex_unlock(&m);
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, add_one, 0);
	pthread_create(&b, 0, sub_big, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
#ifdef ONLY_ONE
	assert(x == 1.0);
#else
	assert(x == 0.0 || x == 1.0);
#endif
	return 0;
}

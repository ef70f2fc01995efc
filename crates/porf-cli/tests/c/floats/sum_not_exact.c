// 0.1 + 0.2 is not 0.3 in IEEE binary64: 0.1 and 0.2 round to 0x3FB999999999999A and
// 0x3FC999999999999A, their sum rounds to 0x3FD3333333333334, while 0.3 rounds to
// 0x3FD3333333333333. Two threads add 0.1 and 0.2 to a mutex-protected total that
// starts at 0.0; in either order (0.0 + 0.1 + 0.2 or 0.0 + 0.2 + 0.1, addition is
// commutative and adding to 0.0 is exact) the total is 0x3FD3333333333334, so main's
// assertion that it equals 0.3 fails in every execution.
// expect: assertion
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
double total;

void *add(void *arg)
{
	double d = *(double *)arg;
	pthread_mutex_lock(&m);
	total += d;
	pthread_mutex_unlock(&m);
	return 0;
}

double tenth = 0.1, fifth = 0.2;

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, add, &tenth);
	pthread_create(&b, 0, add, &fifth);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(total == 0.3);
	return 0;
}

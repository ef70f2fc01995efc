// `$` in identifiers, buggy: the two threads increment `x$count` with plain accesses
// and no lock, so their accesses race (a data race under every model).
// expect rc11 sc: race
#include <pthread.h>

int x$count;

void *t$fun(void *arg)
{
	x$count = x$count + 1;
	return 0;
}

int main(void)
{
	pthread_t t1, t2;
	pthread_create(&t1, 0, t$fun, 0);
	pthread_create(&t2, 0, t$fun, 0);
	pthread_join(t1, 0);
	pthread_join(t2, 0);
	return 0;
}

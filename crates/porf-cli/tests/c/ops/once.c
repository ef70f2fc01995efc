/* Two threads run an initialisation once; the check is wrong when the other thread
 * ran it. */
#include <assert.h>
#include <pthread.h>

pthread_once_t once = PTHREAD_ONCE_INIT;
int who, calls;

void init(void)
{
	calls++;
}

void *t(void *arg)
{
	pthread_once(&once, init);
	assert(calls == 1);
	who = (int)(long)arg;
	assert(who == 1);
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, t, (void *)1);
	pthread_create(&b, 0, t, (void *)2);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}

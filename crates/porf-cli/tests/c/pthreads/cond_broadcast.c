// Two waiters and a broadcast. The mutex totally orders the critical sections: main's
// (go = 1, broadcast) M; per waiter either one section after M (it sees go = 1) or a
// first section before M (it sees go = 0 and waits) and a second one after M (woken
// by the broadcast, it sees go = 1). Orders: both late: 2 (order of the two after
// M); one early, the other late: 2 each (order of the two sections after M), 4; both
// early: 2 orders before M times 2 after, 4. Total 2 + 4 + 4 = 10.
// expect rc11 sc: safe 10
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c;
int go;

static void *waiter(void *arg)
{
	pthread_mutex_lock(&m);
	while (!go)
		pthread_cond_wait(&c, &m);
	pthread_mutex_unlock(&m);
	return 0;
}

int main(void)
{
	pthread_cond_init(&c, 0);
	pthread_t t1, t2;
	pthread_create(&t1, 0, waiter, 0);
	pthread_create(&t2, 0, waiter, 0);
	pthread_mutex_lock(&m);
	go = 1;
	pthread_cond_broadcast(&c);
	pthread_mutex_unlock(&m);
	pthread_join(t1, 0);
	pthread_join(t2, 0);
	pthread_cond_destroy(&c);
	return 0;
}

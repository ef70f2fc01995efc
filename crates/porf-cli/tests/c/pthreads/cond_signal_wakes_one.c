// A signal wakes exactly one waiter, and either one may be chosen. Both waiters
// register under the mutex (a wait without a condition loop: porf models no spurious
// wake-ups, so a wait returns only when a signal or broadcast chose it). Main enters
// its first critical section only after both waits began (the assume; earlier entries
// are blocked executions), signals once, and in a second critical section, entered
// only after the woken waiter's re-lock (assume n == 1), broadcasts to wake the other.
// Executions (by hand): the order of the two waiters' first sections (2) times the
// waiter the signal chooses (2); everything after is forced. 4, and in each the first
// waiter to finish is the one the signal chose.
// expect rc11 sc: safe 4
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int waiting, n, order[2];

static void *waiter(void *arg)
{
	pthread_mutex_lock(&m);
	waiting++;
	pthread_cond_wait(&c, &m);
	order[n++] = (int)(long)arg;
	pthread_mutex_unlock(&m);
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, waiter, (void *)1);
	pthread_create(&b, 0, waiter, (void *)2);
	pthread_mutex_lock(&m);
	__VERIFIER_assume(waiting == 2);
	pthread_cond_signal(&c);
	pthread_mutex_unlock(&m);
	pthread_mutex_lock(&m);
	__VERIFIER_assume(n == 1);
	pthread_cond_broadcast(&c);
	pthread_mutex_unlock(&m);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(n == 2 && order[0] != order[1]);
	return 0;
}

/* pthread_create as a release fence. In C11 (and porf) creating a thread synchronises
 * only with that thread's start: the relaxed store of flag releases nothing, so the
 * reader's read of data races with main's write. GenMC 0.11 makes a thread creation a
 * release fence (its sw has [F|TC] where C11 has [F]): reading flag = 1 then
 * synchronises with everything main did before creating `idle`, and there is no race.
 * porf: a data race (and the assertion can fail). GenMC 0.11: safe, 2 executions.
 * See README.md, "Where porf differs from GenMC 0.11". */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

int data;
atomic_int flag;

void *reader(void *arg)
{
	if (atomic_load_explicit(&flag, memory_order_acquire))
		assert(data == 1);
	return NULL;
}

void *idle(void *arg)
{
	return NULL;
}

int main(void)
{
	pthread_t r, i;
	pthread_create(&r, NULL, reader, NULL);
	data = 1;
	pthread_create(&i, NULL, idle, NULL);
	atomic_store_explicit(&flag, 1, memory_order_relaxed);
	return 0;
}

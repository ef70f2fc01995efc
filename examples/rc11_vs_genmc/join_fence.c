/* pthread_join as an acquire fence. In C11 (and porf) joining a thread synchronises
 * only with that thread's end: main's relaxed read of flag acquires nothing, so main's
 * read of data races with the writer's write. GenMC 0.11 makes a join an acquire
 * fence (its sw has [F|TJ] where C11 has [F]): joining `idle` after reading flag = 1
 * synchronises with the writer's release store, and there is no race.
 * porf: a data race (and the assertion can fail). GenMC 0.11: safe, 2 executions.
 * See README.md, "Where porf differs from GenMC 0.11". */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

int data;
atomic_int flag;

void *writer(void *arg)
{
	data = 1;
	atomic_store_explicit(&flag, 1, memory_order_release);
	return NULL;
}

void *idle(void *arg)
{
	return NULL;
}

int main(void)
{
	pthread_t w, i;
	pthread_create(&i, NULL, idle, NULL);
	pthread_create(&w, NULL, writer, NULL);
	int f = atomic_load_explicit(&flag, memory_order_relaxed);
	pthread_join(i, NULL);
	if (f)
		assert(data == 1);
	return 0;
}

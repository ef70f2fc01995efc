/* Release sequence: a later relaxed store by the releasing thread continues the
 * release sequence in RC11 (herd7's rc11.cat), so the acquire load that reads 2
 * synchronises with the release store of 1 and `data` is read without a race.
 * GenMC 0.11 follows C++20, where only RMWs continue a release sequence: there
 * the read of `data` races with its write.
 * rc11.cat: 3 executions, no race, the assertion holds. GenMC 0.11: a data race
 * (and with -disable-race-detection, 4 executions, one failing the assertion).
 * See README.md, "Where porf differs from GenMC 0.11". */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

int data;
atomic_int flag;

void *producer(void *arg)
{
	data = 1;
	atomic_store_explicit(&flag, 1, memory_order_release);
	atomic_store_explicit(&flag, 2, memory_order_relaxed);
	return NULL;
}

void *consumer(void *arg)
{
	if (atomic_load_explicit(&flag, memory_order_acquire) == 2)
		assert(data == 1);
	return NULL;
}

int main(void)
{
	pthread_t p, c;
	pthread_create(&p, NULL, producer, NULL);
	pthread_create(&c, NULL, consumer, NULL);
	return 0;
}

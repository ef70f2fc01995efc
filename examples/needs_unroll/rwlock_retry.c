// A reader-writer lock's read side that retries by undoing its increment (Linux's
// rwlock shape): a failed iteration's fetch_add and fetch_sub cancel out, but another
// thread may read the value in between, so the iteration has an effect and
// spin-assume repeats it; the loop needs --unroll.
#include <pthread.h>
#include <stdatomic.h>

#define WRITER 1000
atomic_int rw;

void *writer(void *arg)
{
	int free = 0;
	while (!atomic_compare_exchange_strong(&rw, &free, WRITER))
		free = 0;
	atomic_fetch_sub(&rw, WRITER);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, writer, 0);
	for (;;) {
		if (atomic_fetch_add(&rw, 1) < WRITER)
			break;
		atomic_fetch_sub(&rw, 1);
	}
	atomic_fetch_sub(&rw, 1);
	pthread_join(t, 0);
	return 0;
}

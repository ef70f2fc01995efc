// A mutex in a calloc'd block, initialised by pthread_mutex_init (the engine's mutex
// init at the lock word, then the type stored at offset 4) and locked by two threads
// around an increment: as in heap_mutex_struct.c, two executions (the two orders of
// the critical sections) and the counter is 2 after both joins.
// expect: safe 2
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct shared {
	pthread_mutex_t m;
	long n;
};

struct shared *s;

void *worker(void *arg)
{
	pthread_mutex_lock(&s->m);
	s->n++;
	pthread_mutex_unlock(&s->m);
	return 0;
}

int main(void)
{
	pthread_t a, b;
	s = calloc(1, sizeof(struct shared));
	pthread_mutex_init(&s->m, 0);
	pthread_create(&a, 0, worker, 0);
	pthread_create(&b, 0, worker, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(s->n == 2);
	pthread_mutex_destroy(&s->m);
	return 0;
}

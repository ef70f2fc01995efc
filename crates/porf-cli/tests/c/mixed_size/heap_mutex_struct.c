// A mutex inside a heap struct whose lock word is first written by ordinary stores (a
// memset of the struct, then a struct assignment of PTHREAD_MUTEX_INITIALIZER):
// mutex operations name the lock word's first byte and take no width of their own,
// so these 4-byte stores to it are not mixed-size accesses. Two threads each lock,
// increment the counter and unlock; main joins both and sees 2. The two critical
// sections are ordered by the lock in one of two ways and every other read is forced
// (the counter read in the second section sees the first's write, which happens
// before it), so there are two executions under both models.
// expect: safe 2
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct shared {
	pthread_mutex_t m;
	int n;
};

struct shared *s;

void *worker(void *arg)
{
	pthread_mutex_lock(&s->m);
	s->n = s->n + 1;
	pthread_mutex_unlock(&s->m);
	return 0;
}

int main(void)
{
	pthread_t a, b;
	s = malloc(sizeof(struct shared));
	memset(s, 0, sizeof(struct shared));
	s->m = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	pthread_create(&a, 0, worker, 0);
	pthread_create(&b, 0, worker, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(s->n == 2);
	return 0;
}

// GCC's zero-length arrays (`long slots[0]`) and C99 flexible array members
// (`char data[]`) as the last member: they take no bytes (sizeof(struct ring) = 8:
// int n, padding to long alignment; sizeof(struct msg) = 4), and their elements live
// in the rest of the allocation. A producer fills two slots of a ring malloc'ed with
// room for two longs and publishes it through an atomic pointer; the consumer reads
// the pointer (NULL, or the ring) and, if set, the slots, which happen-before the
// release store: 2 executions.
// expect rc11 sc: safe 2
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct ring {
	int n;
	long slots[0];
};

struct msg {
	int len;
	char data[];
};

_Atomic(struct ring *) pub;

void *consumer(void *arg)
{
	struct ring *r = atomic_load_explicit(&pub, memory_order_acquire);
	if (r)
		assert(r->n == 2 && r->slots[0] + r->slots[1] == 12);
	return 0;
}

int main(void)
{
	pthread_t t;
	assert(sizeof(struct ring) == 8 && sizeof(struct msg) == 4);
	pthread_create(&t, 0, consumer, 0);
	struct ring *r = malloc(sizeof(struct ring) + 2 * sizeof(long));
	r->n = 2;
	r->slots[0] = 5;
	r->slots[1] = 7;
	atomic_store_explicit(&pub, r, memory_order_release);
	struct msg *m = malloc(sizeof(struct msg) + 3);
	m->len = 3;
	m->data[2] = 'x';
	assert(m->data[2] == 'x');
	pthread_join(t, 0);
	return 0;
}

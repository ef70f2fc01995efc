// A struct returned by value, copied by assignment and by memcpy: copying a member
// that was never written is allowed and keeps it uninitialised; reading it from the
// last copy is the error (named as the copy's member).
// porf-expect ALL: memory "read of an uninitialised local variable `r.b`"
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

struct pair {
	int a;
	int b;
};

atomic_int x;

static struct pair make(int v)
{
	struct pair p;
	p.a = v;
	return p;
}

void *t(void *arg)
{
	atomic_store_explicit(&x, 1, memory_order_release);
	return 0;
}

int main()
{
	pthread_t th;
	pthread_create(&th, 0, t, 0);
	struct pair q = make(atomic_load_explicit(&x, memory_order_acquire));
	struct pair r;
	memcpy(&r, &q, sizeof r);
	pthread_join(th, 0);
	return r.a + r.b;
}

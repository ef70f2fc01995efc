// The fixed variant of escaped_member.c: both members are initialised before the
// thread starts.
// porf-expect ALL: safe
#include <pthread.h>
#include <stdatomic.h>

struct range {
	atomic_int lo;
	atomic_int hi;
};

void *width(void *arg)
{
	struct range *r = arg;
	int lo = atomic_load_explicit(&r->lo, memory_order_acquire);
	int hi = atomic_load_explicit(&r->hi, memory_order_acquire);
	return (void *)(long)(hi - lo);
}

int run(void)
{
	pthread_t th;
	struct range s;
	atomic_init(&s.lo, 0);
	atomic_init(&s.hi, 4);
	pthread_create(&th, 0, width, &s);
	pthread_join(th, 0);
	return 0;
}

int main()
{
	return run();
}

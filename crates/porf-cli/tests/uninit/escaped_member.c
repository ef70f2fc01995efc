// A function other than main hands a struct local to a thread and writes one member
// only: the thread's read of the other member sees no write.
// porf-expect ALL: memory "read of an uninitialised local variable `s.hi`"
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
	pthread_create(&th, 0, width, &s);
	pthread_join(th, 0);
	return 0;
}

int main()
{
	return run();
}

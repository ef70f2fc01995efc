// A parser writes its out-parameter only on success; the caller uses it without
// looking at the result. The local lives in the caller's private frame (its address
// is taken) and is read through a pointer by nobody else.
// porf-expect ALL: memory "read of an uninitialised local variable `v`"
#include <pthread.h>
#include <stdatomic.h>

atomic_int mode;

static int parse(int c, int *out)
{
	if (c > 0) {
		*out = c;
		return 1;
	}
	return 0;
}

void *t(void *a)
{
	atomic_store_explicit(&mode, 1, memory_order_release);
	return 0;
}

int main()
{
	pthread_t th;
	int v;
	pthread_create(&th, 0, t, 0);
	parse(atomic_load_explicit(&mode, memory_order_acquire), &v);
	pthread_join(th, 0);
	return v;
}

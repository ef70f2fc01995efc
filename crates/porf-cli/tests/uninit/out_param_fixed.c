// The fixed variant of out_param.c: the caller uses the value only if the parser
// wrote it.
// porf-expect ALL: safe
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
	int ok = parse(atomic_load_explicit(&mode, memory_order_acquire), &v);
	pthread_join(th, 0);
	return ok ? v : 0;
}

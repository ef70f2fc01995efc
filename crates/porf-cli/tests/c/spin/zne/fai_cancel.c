// A reader-writer-lock style acquire: fetch_sub, and when it fails, fetch_add of the
// same amount before retrying (Linux's rwlock). The iteration's writes cancel out, but
// its intermediate value is visible: under rc11 with relaxed accesses a reader that
// sees `done` set may still read the -1 of an earlier iteration (it is not hb-after
// the fetch_add that overwrote it). porf must not block such iterations; with
// --unroll the assertion is found under rc11 and not under sc.
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>

atomic_int x, stop, done;

void *spinner(void *arg)
{
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		atomic_fetch_sub_explicit(&x, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&x, 1, memory_order_relaxed);
	}
	atomic_store_explicit(&done, 1, memory_order_relaxed);
	return 0;
}

void *stopper(void *arg)
{
	atomic_store_explicit(&stop, 1, memory_order_relaxed);
	return 0;
}

void *observer(void *arg)
{
	if (atomic_load_explicit(&done, memory_order_relaxed))
		assert(atomic_load_explicit(&x, memory_order_relaxed) != -1);
	return 0;
}

int main(void)
{
	pthread_t a, b, c;
	pthread_create(&a, 0, spinner, 0);
	pthread_create(&b, 0, stopper, 0);
	pthread_create(&c, 0, observer, 0);
	return 0;
}

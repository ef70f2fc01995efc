// porf's <lkmm.h>: smp_store_release / smp_load_acquire are a release store and an
// acquire load. By hand (message passing): the reader reads flag = 0 (and stops) or
// flag = 1, and then the acquire synchronises with the release, so data reads 1 (its
// only hb-visible write): 2 complete executions, the assertion holds. Same under sc.
// expect: safe 2
#include <assert.h>
#include <lkmm.h>

int data;
int flag;

static void *writer(void *arg)
{
	WRITE_ONCE(data, 1);
	smp_store_release(&flag, 1);
	return NULL;
}

static void *reader(void *arg)
{
	if (smp_load_acquire(&flag))
		assert(READ_ONCE(data) == 1);
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, writer, NULL);
	pthread_create(&b, NULL, reader, NULL);
	return 0;
}

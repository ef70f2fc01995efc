// porf's <lkmm.h>: smp_wmb() is a release fence and smp_rmb() an acquire fence (C11's
// reading of them). By hand: the reader reads flag = 0 (1 execution) or 1; then the
// release fence before the flag's store and the acquire fence after its load
// synchronise (C11 fence-fence synchronisation), so data reads 1: 2 complete
// executions, no failure. Under sc, likewise 2.
// expect: safe 2
#include <assert.h>
#include <lkmm.h>

int data;
int flag;

static void *writer(void *arg)
{
	WRITE_ONCE(data, 1);
	smp_wmb();
	WRITE_ONCE(flag, 1);
	return NULL;
}

static void *reader(void *arg)
{
	int r = READ_ONCE(flag);
	smp_rmb();
	if (r)
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

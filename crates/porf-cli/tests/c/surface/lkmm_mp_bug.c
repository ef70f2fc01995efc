// porf's <lkmm.h>: READ_ONCE / WRITE_ONCE are relaxed accesses, which do not order
// message passing. By hand: under rc11 the reader may read flag = 1 and then the
// initial data 0, so the assertion fails. Under sc, reading flag = 1 means data = 1
// already: flag 0 (1 execution) or 1 then data 1 (1): safe, 2 complete.
// expect rc11: assertion "data is set"
// expect sc: safe 2
#include <assert.h>
#include <lkmm.h>

int data;
int flag;

static void *writer(void *arg)
{
	WRITE_ONCE(data, 1);
	WRITE_ONCE(flag, 1);
	return NULL;
}

static void *reader(void *arg)
{
	if (READ_ONCE(flag))
		assert(READ_ONCE(data) == 1 && "data is set");
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, writer, NULL);
	pthread_create(&b, NULL, reader, NULL);
	return 0;
}

// pthread_join's result collected through a `void *` (which converts to `void **`
// implicitly, C11 6.3.2.3p1): the thread's return value is stored there. One
// execution; res is the thread's result.
// expect rc11 sc: safe 1
#include <assert.h>
#include <pthread.h>

static void *give(void *arg)
{
	return (void *)42L;
}

int main(void)
{
	pthread_t t;
	void *res = 0;
	void *where = &res;
	pthread_create(&t, 0, give, 0);
	pthread_join(t, where);
	assert((long)res == 42);
	return 0;
}

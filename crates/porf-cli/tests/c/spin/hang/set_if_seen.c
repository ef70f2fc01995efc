/* main waits for flag, which the setter writes only if it saw the writer's x = 1.
 * Where the setter read 0, nothing ever writes flag: main reads its initial 0, the
 * co-latest (and only) write, and spins forever (exactly one such execution: x's two
 * writes, the initial one and the writer's, have one co order, and flag has no write
 * but its initial one). Where the setter read 1, main reads flag = 1 and the program
 * ends: some executions are complete. */
#include <stdatomic.h>
#include <pthread.h>

atomic_int x, flag;

void *writer(void *arg)
{
	atomic_store(&x, 1);
	return NULL;
}

void *setter(void *arg)
{
	if (atomic_load(&x) == 1)
		atomic_store(&flag, 1);
	return NULL;
}

int main(void)
{
	pthread_t w, s;
	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&s, NULL, setter, NULL);
	while (!atomic_load(&flag))
		;
	pthread_join(w, NULL);
	pthread_join(s, NULL);
	return 0;
}

// Two threads increment a counter inside SV-COMP atomic sections (a
// `__VERIFIER_atomic_*` function is one section): no update is lost. Under SC the
// sections run one after the other, in either order: 2 complete executions (the
// second section reads the first one's write). Accesses inside sections are atomic,
// and main reads the counter after joining both threads: no race.
// Other models refuse sections.
// expect sc: safe 2
// expect rc11: rejected "supported under --model sc only"
// expect sc | --explorer rf-smc --equiv rf: rejected "reference explorer only"
#include <pthread.h>
#include <assert.h>

int c;

void __VERIFIER_atomic_inc(void)
{
	int t = c;
	c = t + 1;
}

void *worker(void *arg)
{
	__VERIFIER_atomic_inc();
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, worker, 0);
	pthread_create(&b, 0, worker, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(c == 2);
	return 0;
}

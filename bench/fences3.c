/*
 * A random-shaped program with three seq_cst fences (issue 27's benchmark): four
 * threads of relaxed loads and stores on three locations, three of them split by a
 * seq_cst fence. No assertion: every execution is correct, so a checker explores all of
 * them and the time measures how it handles the fences (under RC11 each fence joins the
 * psc order). -DNOFENCES drops the fences (the same accesses, more executions).
 */
#include <pthread.h>
#include <stdatomic.h>

#ifdef NOFENCES
#define FENCE() ((void)0)
#else
#define FENCE() atomic_thread_fence(memory_order_seq_cst)
#endif

#define ST(v, x) atomic_store_explicit(&(v), (x), memory_order_relaxed)
#define LD(v) atomic_load_explicit(&(v), memory_order_relaxed)

atomic_int x, y, z;

void *t1(void *arg)
{
	ST(x, 1);
	FENCE();
	int a = LD(y);
	ST(z, a + 1);
	int g = LD(x);
	(void)g;
	return NULL;
}

void *t2(void *arg)
{
	ST(y, 1);
	FENCE();
	int b = LD(z);
	ST(x, b + 2);
	return NULL;
}

void *t3(void *arg)
{
	ST(z, 3);
	int c = LD(x);
	FENCE();
	ST(y, c + 3);
	int d = LD(z);
	(void)d;
	return NULL;
}

void *t4(void *arg)
{
	int e = LD(x);
	ST(y, 4);
	int f = LD(z);
	ST(x, e + f);
	return NULL;
}

int main()
{
	pthread_t a, b, c, d;
	pthread_create(&a, NULL, t1, NULL);
	pthread_create(&b, NULL, t2, NULL);
	pthread_create(&c, NULL, t3, NULL);
	pthread_create(&d, NULL, t4, NULL);
	return 0;
}

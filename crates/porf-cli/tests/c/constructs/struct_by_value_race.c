// Passing a struct by value reads every member of the argument: the thread's copy of
// g races with main's unsynchronised write of g.a (both non-atomic, no happens-before
// between them), a data race under rc11; under sc porf also reports data races.
// expect rc11 sc: race
#include <pthread.h>

struct pair {
	int a, b;
};

struct pair g;

int sum(struct pair p)
{
	return p.a + p.b;
}

void *user(void *arg)
{
	return (void *)(long)sum(g);
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, user, 0);
	g.a = 1;
	pthread_join(t, 0);
	return 0;
}

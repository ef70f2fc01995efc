// Structs passed and returned by value (C11 6.5.2.2p4: the parameter is a copy;
// 6.8.6.4: the returned value is a copy). mk builds {a, b, {1, 2, 3}}; sum adds 100
// to its copy's a (the caller's x.a stays 1) and returns 101 + 2 + 3 = 106; twice
// doubles a and b of its copy, twice(twice(x)) = {4, 8, {1, 2, 3}}; a call through a
// function pointer gives 104 + 8 + 3 = 115. g = mk(5, 6) is stored before the thread
// that passes it by value is spawned, so the thread's sum is 105 + 6 + 3 and there is
// one execution.
// expect rc11 sc: safe 1
#include <assert.h>
#include <pthread.h>

struct pair {
	int a;
	long b;
	char c[3];
};

struct pair g;

struct pair mk(int a, long b)
{
	struct pair p = { a, b, { 1, 2, 3 } };
	return p;
}

int sum(struct pair p)
{
	p.a += 100;
	return p.a + (int)p.b + p.c[2];
}

struct pair twice(struct pair p)
{
	p.a *= 2;
	p.b *= 2;
	return p;
}

void *user(void *arg)
{
	assert(sum(g) == 100 + 5 + 6 + 3);
	return 0;
}

int main(void)
{
	pthread_t t;
	struct pair x = mk(1, 2);
	assert(sum(x) == 106);
	assert(x.a == 1);
	struct pair y = twice(twice(x));
	assert(y.a == 4 && y.b == 8 && y.c[1] == 2);
	int (*fp)(struct pair) = sum;
	assert(fp(y) == 115);
	x = mk(5, 6);
	assert(x.a == 5 && mk(7, 8).b == 8);
	g = x;
	pthread_create(&t, 0, user, 0);
	pthread_join(t, 0);
	return 0;
}

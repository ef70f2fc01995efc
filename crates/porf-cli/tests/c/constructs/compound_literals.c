// Compound literals (C11 6.5.2.5): unnamed objects with automatic storage, lvalues,
// initialised like declarations (unnamed members zero). p points to {1, 2, 3}; q
// copies {0, 4}; a struct literal passed by value sums to 7; an array literal passed
// as a pointer gives a[0] + a[2] = 0 + 9; the literal in the loop is re-created each
// iteration with the current i: t = 0 + 1 + 2 = 3; &(struct pt){5, 6} is modifiable.
// The thread only reads the literal's value passed as its argument (copied to the
// global before the spawn): one execution.
// expect rc11 sc: safe 1
#include <assert.h>
#include <pthread.h>

struct pt {
	int x, y;
};

int sum(struct pt p)
{
	return p.x + p.y;
}

int first(int *a)
{
	return a[0] + a[2];
}

struct pt shared;

void *reader(void *arg)
{
	assert(shared.x == 8 && shared.y == 9);
	return 0;
}

int main(void)
{
	pthread_t t;
	int *p = (int[]){ 1, 2, 3 };
	assert(p[0] == 1 && p[1] == 2 && p[2] == 3);
	struct pt q = (struct pt){ .y = 4 };
	assert(q.x == 0 && q.y == 4);
	assert(sum((struct pt){ 3, 4 }) == 7);
	assert(first((int[4]){ [2] = 9 }) == 9);
	int t2 = 0;
	for (int i = 0; i < 3; i++) {
		int *c = (int[]){ i };
		t2 += *c;
	}
	assert(t2 == 3);
	struct pt *r = &(struct pt){ 5, 6 };
	r->x++;
	assert(r->x == 6 && r->y == 6);
	shared = (struct pt){ 8, 9 };
	pthread_create(&t, 0, reader, 0);
	pthread_join(t, 0);
	return 0;
}

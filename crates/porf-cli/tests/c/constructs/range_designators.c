// GCC's range designators `[lo ... hi] = v` (GCC manual, "Designated Initializers"):
// every index from lo to hi gets v, and an item without designator continues after
// hi. g = {0, 7, 7, 7, 9, 0}; the local s.a = {42, 42, 42, 0}, s.b = 1; the string of
// the last one covers a single index. A thread reads g[2] (7, never written again):
// one execution.
// expect rc11 sc: safe 1
#include <assert.h>
#include <pthread.h>

int g[6] = { [1 ... 3] = 7, 9 };

struct s {
	int a[4];
	int b;
};

void *reader(void *arg)
{
	assert(g[2] == 7);
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, reader, 0);
	struct s s = { .a = { [0 ... 2] = 42 }, .b = 1 };
	int c[3] = { [2 ... 2] = 5 };
	assert(g[0] == 0 && g[1] == 7 && g[3] == 7 && g[4] == 9 && g[5] == 0);
	assert(s.a[0] == 42 && s.a[2] == 42 && s.a[3] == 0 && s.b == 1);
	assert(c[0] == 0 && c[1] == 0 && c[2] == 5);
	pthread_join(t, 0);
	return 0;
}

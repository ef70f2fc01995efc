// GNU statement expressions ({ ... }): the value is the last expression statement's,
// declarations inside are scoped to the braces. MAX(3, 7) = 7; y = x + 1 = 8; the
// void one stores 5 into g; a pointer-valued one gives &g. A thread uses one to read
// a flag twice: main stores 1 before the spawn, so both reads see 1 and r == 2.
// One execution (no write races with the thread's reads).
// expect rc11 sc: safe 1
#include <assert.h>
#include <pthread.h>

#define MAX(a, b) ({ int _a = (a), _b = (b); _a > _b ? _a : _b; })

int g, flag;

static void *reader(void *arg)
{
	int r = ({ int s = flag; s += flag; s; });
	assert(r == 2);
	return 0;
}

int main(void)
{
	int x = MAX(3, 7);
	int y = ({ int t = x; t += 1; t; });
	({ g = 5; });
	int *p = ({ &g; });
	assert(x == 7 && y == 8 && *p == 5);
	flag = 1;
	pthread_t t;
	pthread_create(&t, 0, reader, 0);
	pthread_join(t, 0);
	return 0;
}

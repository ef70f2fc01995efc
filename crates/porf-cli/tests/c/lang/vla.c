// Variable-length arrays (C11 6.7.6.2): the length is evaluated when the declaration
// is reached (here from a parameter and from a loop counter), `sizeof` is computed at
// run time, the array is indexed, passed to a function and handed to a thread that
// fills it (joined before main reads it back). The thread's writes to `buf` happen
// before main's reads (create and join), so every read has one source: one execution.
// expect: safe 1
#include <assert.h>
#include <pthread.h>

struct job {
	int *a;
	int n;
};

static void *fill(void *arg)
{
	struct job *j = arg;
	for (int i = 0; i < j->n; i++)
		j->a[i] = i * i;
	return 0;
}

static int sum(const int *a, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += a[i];
	return s;
}

static int make(int n)
{
	long v[n];
	assert(sizeof v == n * sizeof(long));
	for (int i = 0; i < n; i++)
		v[i] = i;
	return (int)v[n - 1];
}

int main(void)
{
	int n = 4;
	int buf[n];
	assert(sizeof(buf) == 16 && sizeof buf / sizeof buf[0] == 4);
	struct job j = { buf, n };
	pthread_t t;
	pthread_create(&t, 0, fill, &j);
	pthread_join(t, 0);
	assert(sum(buf, n) == 0 + 1 + 4 + 9);
	for (int k = 1; k <= 3; k++) {
		char row[k + 1];
		row[k] = 'x';
		assert(sizeof row == (unsigned long)k + 1 && row[k] == 'x');
	}
	assert(make(3) == 2 && make(1) == 0);
	return 0;
}

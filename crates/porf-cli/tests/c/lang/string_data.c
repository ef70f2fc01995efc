// String literals as data (C11 6.4.5, 6.7.9p14): indexed through a pointer, copied
// into character arrays (of unknown size: the literal's length plus one; of a
// larger size: the rest zero; as a struct member), passed to functions and walked
// by a strlen-style loop, shared with a thread that reads them. The literals are
// never written and the thread writes nothing, so every read has one source: one
// execution.
// expect: safe 1
#include <assert.h>
#include <pthread.h>

struct rec {
	int id;
	char name[6];
};

static const char *shared = "shared";
static char table[2][4] = { "ab", "cde" };

static int length(const char *s)
{
	int n = 0;
	while (s[n])
		n++;
	return n;
}

static void *reader(void *arg)
{
	const char *s = arg;
	assert(s[1] == 'h' && length(s) == 6);
	return 0;
}

int main(void)
{
	const char *s = "abc";
	assert(s[1] == 'b' && s[3] == 0);
	char a[] = "hello";
	assert(sizeof a == 6 && a[4] == 'o' && a[5] == 0);
	char b[8] = "hi";
	assert(b[1] == 'i' && b[2] == 0 && b[7] == 0);
	struct rec r = { 7, "xyz" };
	assert(r.name[2] == 'z' && r.name[3] == 0);
	assert(table[1][2] == 'e' && table[0][2] == 0);
	a[0] = 'j';
	assert(a[0] == 'j' && length(a) == 5);
	assert(length("four") == 4);
	pthread_t t;
	pthread_create(&t, 0, reader, (void *)shared);
	pthread_join(t, 0);
	return 0;
}

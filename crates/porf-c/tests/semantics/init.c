/* Initializers: brace elision, designators, zero-fill, unions, nested aggregates,
 * in globals and in locals (re-initialised on every execution of the declaration). */
#include <assert.h>
#include <stdbool.h>

struct inner {
	int a[2];
	char c;
};

struct outer {
	long id;
	struct inner in;
	struct inner pair[2];
	bool flag;
};

union u {
	int i;
	unsigned char bytes[4];
};

struct outer g1 = {1, {{2, 3}, 'x'}, {{{4, 5}, 'y'}}, true};
struct outer g2 = {.in.c = 'q', .pair[1].a[1] = 9, .id = 7};
struct outer g3 = {10, 11, 12, 13};
int g4[] = {[3] = 4, 5};
union u g5 = {0x01020304};
struct inner g6[] = {1, 2, 'a', 3, 4, 'b'};

static int sum_inner(struct inner *p)
{
	return p->a[0] + p->a[1] + p->c;
}

int main(void)
{
	assert(g1.id == 1 && g1.in.a[1] == 3 && g1.in.c == 'x');
	assert(g1.pair[0].a[0] == 4 && g1.pair[0].c == 'y' && g1.pair[1].a[0] == 0 && g1.flag);
	assert(g2.id == 7 && g2.in.c == 'q' && g2.pair[1].a[1] == 9 && g2.in.a[0] == 0);
	assert(g3.id == 10 && g3.in.a[0] == 11 && g3.in.a[1] == 12 && g3.in.c == 13);
	assert(sizeof g4 == 5 * sizeof(int) && g4[3] == 4 && g4[4] == 5 && g4[0] == 0);
	assert(g5.i == 0x01020304);
	assert(sizeof g6 == 2 * sizeof(struct inner) && g6[1].c == 'b' && sum_inner(&g6[0]) == 3 + 'a');
	for (int round = 0; round < 2; round++) {
		struct outer l = {.pair = {[1] = {{round, 2}}}, .id = round + 100};
		assert(l.id == round + 100 && l.pair[1].a[0] == round && l.pair[1].a[1] == 2);
		assert(l.in.a[0] == 0 && l.pair[0].c == 0 && !l.flag);
		l.in.a[0] = 55;
		l.flag = true;
		struct outer copy = l;
		assert(copy.in.a[0] == 55 && copy.flag && copy.id == l.id);
		int arr[3][2] = {{1}, [2] = {5, 6}};
		assert(arr[0][0] == 1 && arr[0][1] == 0 && arr[1][0] == 0 && arr[2][1] == 6);
		arr[1][1] = 9;
		char s[4] = {'a', 'b'};
		assert(s[1] == 'b' && s[2] == 0 && s[3] == 0);
		s[3] = 'z';
		int scalar = {42};
		assert(scalar == 42);
		union u lu = {.i = -1};
		assert(lu.bytes[0] == 255 && lu.bytes[3] == 255);
	}
	return 0;
}

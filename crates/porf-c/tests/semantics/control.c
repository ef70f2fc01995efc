/* Control flow: switch, loops, goto, static locals, function pointers. */
#include <assert.h>

typedef int (*binop)(int, int);

static int add(int a, int b) { return a + b; }
static int mul(int a, int b) { return a * b; }

static int classify(int v)
{
	int r = 0;
	switch (v) {
	case 0:
		r += 1;
	case 1:
		r += 10;
		break;
	default:
		r = -1;
	case 5:
		r += 100;
		break;
	case 7: {
		int k = 3;
		r = k;
		break;
	}
	}
	return r;
}

static int counter(void)
{
	static int n = 5;
	return n++;
}

static int find(const int *v, int n, int key)
{
	int i;
	for (i = 0; i < n; i++)
		if (v[i] == key)
			goto found;
	return -1;
found:
	return i;
}

int main(void)
{
	assert(classify(0) == 11 && classify(1) == 10);
	assert(classify(5) == 100 && classify(9) == 99 && classify(7) == 3);
	assert(counter() == 5 && counter() == 6);
	int v[4] = {4, 8, 15, 16};
	assert(find(v, 4, 15) == 2 && find(v, 4, 3) == -1);
	binop ops[2] = {add, mul};
	assert(ops[0](3, 4) == 7 && (*ops[1])(3, 4) == 12);
	int s = 0;
	for (int i = 0; i < 10; i++) {
		if (i % 2)
			continue;
		if (i > 6)
			break;
		s += i;
	}
	assert(s == 12);
	int j = 0;
	do {
		j += 3;
	} while (j < 10);
	assert(j == 12);
	int w = 100;
	while (w > 1)
		w /= 3;
	assert(w == 1);
	int nested = 0;
	for (int a = 0; a < 3; a++)
		for (int b = 0; b < 3; b++) {
			if (b == a)
				continue;
			nested++;
		}
	assert(nested == 6);
	_Static_assert(sizeof(binop) == 8, "function pointers are 8 bytes");
	return 0;
}

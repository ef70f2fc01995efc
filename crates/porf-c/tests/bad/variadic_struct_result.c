// expect: unsupported 4:13
struct pair { int a, b; };

struct pair make(int n, ...)
{
	struct pair p = {n, n};
	return p;
}

int main(void)
{
	return make(1, 2).a;
}

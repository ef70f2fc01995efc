// expect: unsupported 6:5
struct pair {
	int a, b;
};

int sum(struct pair p)
{
	return p.a + p.b;
}

int main(void)
{
	return 0;
}

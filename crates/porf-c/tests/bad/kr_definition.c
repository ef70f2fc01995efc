// expect: unsupported 3:1
int add(a, b)
int a;
int b;
{
	return a + b;
}

int main(void)
{
	return add(1, 2);
}

// expect: unsupported 6:22
int odd(int n);

int even(int n)
{
	return n == 0 ? 1 : odd(n - 1);
}

int odd(int n)
{
	return n == 0 ? 0 : even(n - 1);
}

int main(void)
{
	return even(4);
}

// expect: unsupported 6:13
int fact(int n)
{
	if (n <= 1)
		return 1;
	return n * fact(n - 1);
}

int main(void)
{
	return fact(3);
}

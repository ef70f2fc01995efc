// expect: unsupported 5:8
int main(void)
{
	int n = 3;
	int a[n];
	a[0] = 1;
	return 0;
}

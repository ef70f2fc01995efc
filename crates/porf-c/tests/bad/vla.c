// expect: unsupported 5:8
int main(void)
{
	int n = 3;
	int a[n][2];
	a[0][0] = 1;
	return 0;
}

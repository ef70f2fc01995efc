// expect: error 3:6
int f(int x);
long f(int x)
{
	return x;
}

int main(void)
{
	return 0;
}

// expect: unsupported 4:2
int main(void)
{
	long double x = 0;
	return (int)x;
}

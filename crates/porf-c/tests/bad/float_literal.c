// expect: unsupported 4:10
int main(void)
{
	int x = 1.5L;
	return x;
}

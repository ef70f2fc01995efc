// expect: unsupported 5:9
int main(void)
{
	int x = 0;
	return _Generic(x, int: 1, default: 0);
}

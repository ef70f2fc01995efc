// expect: unsupported 2:5
int first(int n, ...)
{
	return n;
}

int main(void)
{
	return first(1, 2);
}

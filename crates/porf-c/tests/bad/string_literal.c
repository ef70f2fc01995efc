// expect: unsupported 4:11
int main(void)
{
	int *s = L"hello";
	return s != 0;
}

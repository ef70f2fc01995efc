// expect: unsupported 4:2
int main(void)
{
	frobnicate(1);
	return 0;
}

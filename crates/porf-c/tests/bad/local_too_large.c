// expect: unsupported 4:7
int main(void)
{
	long buffer[4000000];
	buffer[0] = 1;
	return 0;
}

// expect: unsupported 4:11
int main(void)
{
	int *p = (int[]){1, 2};
	return p[0];
}

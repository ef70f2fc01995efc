// expect: unsupported 4:12
int main(void)
{
	char *s = "hello";
	return s != 0;
}

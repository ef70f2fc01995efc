// expect: unsupported 4:2
int main(void)
{
	float x = 0;
	return (int)x;
}

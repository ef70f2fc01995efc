// expect: unsupported 3:9
int x = 1;
int y = x + 1;

int main(void)
{
	return y;
}

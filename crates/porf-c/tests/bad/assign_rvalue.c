// expect: error 5:2
int main(void)
{
	int x = 0;
	(x + 1) = 2;
	return x;
}

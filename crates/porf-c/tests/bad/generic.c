// expect: error 5:9
int main(void)
{
	int x = 0;
	return _Generic(x, double: 1, long: 0);
}

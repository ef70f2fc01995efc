// expect: error 4:11
int main(void)
{
	int *p = 5;
	return p != 0;
}

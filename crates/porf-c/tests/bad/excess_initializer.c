// expect: error 2:19
int a[2] = {1, 2, 3};

int main(void)
{
	return a[0];
}

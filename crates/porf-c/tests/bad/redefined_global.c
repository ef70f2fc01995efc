// expect: error 3:5
int x = 1;
int x = 2;

int main(void)
{
	return x;
}

// expect: error 4:10
int main(void)
{
	int x = ;
	return x;
}

// expect: error 4:9
int main(void)
{
	return helper(2);
}

int helper(int x)
{
	return x;
}

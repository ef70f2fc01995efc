// expect: error 1:1
int helper(void)
{
	return 0;
}

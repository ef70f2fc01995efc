// A variable-length array whose length evaluates to 0 is undefined (C11 6.7.6.2p5:
// the size must be greater than zero each time it is evaluated): a memory error.
// expect: memory "variable-length array of length 0"
int main(void)
{
	int n = 0;
	int a[n];
	return (int)sizeof a;
}

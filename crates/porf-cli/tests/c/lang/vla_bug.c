// An off-by-one loop over a variable-length array writes one element past its end:
// the array is a block of exactly `n * sizeof(int)` bytes, so the write is out of
// bounds, a memory error.
// expect: memory
int main(void)
{
	int n = 3;
	int a[n];
	for (int i = 0; i <= n; i++)
		a[i] = i;
	return a[0];
}

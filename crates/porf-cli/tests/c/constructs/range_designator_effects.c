// A range designator repeats its initializer; one with a side effect would run it
// once per index in porf but once in GCC, so porf rejects it.
// expect: rejected "range designator"
int main(void)
{
	int i = 0;
	int a[3] = { [0 ... 2] = i++ };
	return a[0] + i;
}

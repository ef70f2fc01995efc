// `long double` (x87 extended precision on x86-64) is not supported.
// expect: rejected "`long double` is not supported"
int main(void)
{
	long double x = 1;
	return x > 0;
}

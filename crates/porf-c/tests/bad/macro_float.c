// expect: unsupported 5:2
#define REAL long double
int main(void)
{
	REAL /* a comment */ r;
	return 0;
}

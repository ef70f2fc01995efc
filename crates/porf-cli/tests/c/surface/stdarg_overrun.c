// va_arg past the arguments a call passed is undefined behaviour (C11 7.16.1.1p2):
// porf reports it as a memory error at the va_arg.
// expect rc11 sc: memory "va_arg beyond the variadic arguments"
#include <stdarg.h>

static int sum(int n, ...)
{
	va_list ap;
	va_start(ap, n);
	int s = 0;
	for (int i = 0; i < n; i++)
		s += va_arg(ap, int);
	va_end(ap);
	return s;
}

int main(void)
{
	return sum(3, 1, 2); /* one argument short */
}

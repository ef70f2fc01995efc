// <stdarg.h>: a user variadic function reads its extra arguments in order with
// va_arg (ints, a long, a double, a pointer: after the default promotions), a va_list
// passed to another function reads the same arguments (C11 7.16p3), va_copy copies
// the position, and a variadic function is called through a pointer too. One thread,
// no shared accesses: one execution, every assertion holds (C11 7.16.1).
// expect rc11 sc: safe 1
#include <assert.h>
#include <stdarg.h>

static long sum(int n, ...)
{
	va_list ap, again;
	va_start(ap, n);
	va_copy(again, ap);
	long s = 0;
	for (int i = 0; i < n; i++)
		s += va_arg(ap, int);
	va_end(ap);
	s += 1000 * va_arg(again, int); /* the first one again */
	va_end(again);
	return s;
}

static int next_int(va_list ap) { return va_arg(ap, int); }

static double mixed(const char *tag, ...)
{
	va_list ap;
	va_start(ap, tag);
	char c = (char)va_arg(ap, int); /* a char is passed as an int */
	long l = va_arg(ap, long);
	double d = va_arg(ap, double); /* a float is passed as a double */
	const char *s = va_arg(ap, const char *);
	int last = next_int(ap);
	va_end(ap);
	assert(c == 'q' && l == 1L << 40 && s[1] == 'k' && last == -3);
	return d;
}

int main(void)
{
	assert(sum(3, 1, 2, 3) == 1006);
	long (*f)(int, ...) = sum;
	assert(f(2, 10, 20) == 10030);
	assert(mixed("t", 'q', 1L << 40, 2.5f, "ok", -3) == 2.5);
	return 0;
}

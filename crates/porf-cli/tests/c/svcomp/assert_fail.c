// glibc's assert expands to a call of `__assert_fail(text, file, line, function)`:
// porf reads it as the assertion failure with that text.
// expect sc: assertion "Assertion `x == 2' failed"
extern void __assert_fail(const char *__assertion, const char *__file,
                          unsigned int __line, const char *__function)
	__attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));

int x = 1;

int main(void)
{
	((x == 2) ? (void)(0) : __assert_fail("x == 2", "assert_fail.c", 11, __extension__ __PRETTY_FUNCTION__));
	return 0;
}

// A string literal is read-only (C11 6.4.5p7: modifying its array is undefined);
// a write through a pointer to one is a memory error. (The array initialized from a
// literal, `a`, is an ordinary object and may be written.)
// expect: memory "write to a string literal"
int main(void)
{
	char a[] = "abc";
	a[0] = 'x';
	char *s = "abc";
	s[0] = 'x';
	return 0;
}

// An integer assigned to a pointer without a cast is accepted with a warning; the
// pointer then holds 8, an address in the null page, and dereferencing it is a memory
// error (a crash in a real run).
// expect rc11 sc: memory "null pointer"
// expect-stderr: converted to pointer `int *` without a cast
int main(void)
{
	int *p = 8;
	return *p;
}

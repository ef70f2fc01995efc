// Unsupported constructs in main itself: the `long double` declaration on a branch
// no execution takes is no error (its block is left where it is declared); the
// `asm` that every execution reaches is, at its position (line 14, column 2),
// exit code 3.
// expect: rejected "inline assembly `pause` is not supported"
int main(void)
{
	int x = 1;
	if (x == 2) {
		long double d = 2;
		x = (int)d;
	}
	x++;
	__asm__ __volatile__("pause" ::: "memory");
	return x;
}

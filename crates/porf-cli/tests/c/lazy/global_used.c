// A global whose declaration uses an unsupported type is an error only where it is
// used: here at the declaration's position (line 8, column 1: its specifiers), when main reads it.
// The unused function whose body names it is no error.
// expect: rejected "`long double`"
static int unused(void);
static int other(void);

long double ld = 1.0;

static int other(void) { return ld > 0; }

int main(void)
{
	int x = 0;
	x = ld > 0;
	return x;
}

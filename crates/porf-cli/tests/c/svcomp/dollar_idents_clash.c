// `a$b` next to `a_b`: porf reads `$` in identifiers as `_`, which would join the two
// variables, so the program is refused (at the first `a$b`, line 9 column 6) rather
// than run with one variable where it has two.
// expect: rejected "porf reads `$` in identifiers as `_`"
int a_b = 1;

int main(void)
{
	int a$b = 2;
	return a_b + a$b == 3 ? 0 : 1;
}

// `%` needs integer operands (C11 6.5.5p2): gcc rejects `double % int` with "invalid
// operands to binary %", and so does porf (an error, exit code 3).
// expect: rejected "invalid operands to binary `%`"
int main(void)
{
	double d = 7.5;
	return d % 2;
}

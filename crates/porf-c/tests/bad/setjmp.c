// expect: unsupported 8:6
typedef long jmp_buf[8];
int setjmp(jmp_buf env);

int main(void)
{
	jmp_buf env;
	if (setjmp(env))
		return 1;
	return 0;
}

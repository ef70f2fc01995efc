// expect: error 3:2
#ifndef N
#error "N must be defined"
#endif

int main(void)
{
	return 0;
}

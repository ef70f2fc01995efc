// expect: unsupported 2:1
_Thread_local int counter;

int main(void)
{
	return counter;
}

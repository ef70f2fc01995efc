// expect: error 4:20
int main(void)
{
	_Thread_local int counter = 0;
	return counter;
}

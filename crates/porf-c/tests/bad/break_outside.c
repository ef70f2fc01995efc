// expect: error 4:2
int main(void)
{
	break;
	return 0;
}

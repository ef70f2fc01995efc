// expect: error 4:7
int main(void)
{
	goto out;
	return 1;
}

// expect: error 4:9
int main(void)
{
	return counter + 1;
}

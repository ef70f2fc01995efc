// expect: error 6:10
void nothing(void) {}

int main(void)
{
	int x = nothing();
	return x;
}

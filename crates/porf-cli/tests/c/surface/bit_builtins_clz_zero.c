// __builtin_clz(0) is undefined (GCC's documentation): reported as an error.
// expect rc11 sc: memory "undefined behaviour"
int zero;

int main(void)
{
	return __builtin_clz(zero);
}

// expect: error 3:15
struct opaque;
struct opaque thing;

int main(void)
{
	return 0;
}

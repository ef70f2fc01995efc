// expect: unsupported 3:14
struct flags {
	int ready : 1;
};

struct flags f;

int main(void)
{
	return 0;
}

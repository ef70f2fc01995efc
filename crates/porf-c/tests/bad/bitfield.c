// expect: unsupported 2:1
union flags {
	int ready : 1;
	long all;
};

union flags f;

int main(void)
{
	return f.ready;
}

// expect: unsupported 7:27
union number {
	int small;
	long big;
};

union number n = { .big = 1 };

int main(void)
{
	return n.small == 1;
}

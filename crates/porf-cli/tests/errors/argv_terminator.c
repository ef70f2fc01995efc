// The program expects an argument, but porf runs it with none: argv[1] is the NULL
// that ends argv.
// porf-expect sc tso ra rc11: assertion
#include <assert.h>
#include <stddef.h>

int main(int argc, char **argv)
{
	assert(argv[1] != NULL);
	return 0;
}

// Fixed argv_terminator.c: argv holds argc pointers and a NULL; argv[0] is a
// non-empty program name.
// porf-expect sc tso ra rc11: safe
#include <assert.h>
#include <stddef.h>

int main(int argc, char **argv)
{
	assert(argc == 1);
	assert(argv[argc] == NULL);
	assert(argv[0] != NULL && argv[0][0] != 0);
	return 0;
}

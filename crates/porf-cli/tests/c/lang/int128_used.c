// A 128-bit integer that an execution reaches: porf's values are 64-bit, so the
// declaration is an unsupported error naming the type, at its position (line 9,
// column 11: the keyword), exit code 3.
// expect: rejected "`unsigned __int128` is not supported"
#include <stdint.h>

int main(void)
{
	unsigned __int128 p = (unsigned __int128)UINT64_MAX * 2;
	return (int)(p >> 64);
}

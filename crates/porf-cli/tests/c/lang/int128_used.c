// A 128-bit integer that an execution reaches: GCC's `unsigned __int128` arithmetic
// (porf-c's wide.rs: 16-byte values travel as codes, computed on decoded). By hand:
// UINT64_MAX * 2 = 2^65 - 2, whose bits 64..127 are 1. One thread: one execution.
// expect: safe 1
#include <assert.h>
#include <stdint.h>

int main(void)
{
	unsigned __int128 p = (unsigned __int128)UINT64_MAX * 2;
	assert((int)(p >> 64) == 1);
	assert((uint64_t)p == UINT64_MAX - 1);
	return 0;
}

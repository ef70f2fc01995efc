// The same punning as union_private_pun.c, but the program assumes a big-endian
// layout: after w = 0x1122334455667788, h[0] holds the low four bytes 0x55667788
// (little-endian x86-64), not 0x11223344, so the assertion fails in the only
// execution.
// expect: assertion
#include <assert.h>
#include <stdint.h>

union word {
	uint64_t w;
	uint32_t h[2];
	uint8_t b[8];
};

int main(void)
{
	union word x;
	x.w = 0x1122334455667788ull;
	assert(x.h[0] == 0x11223344u);
	return 0;
}

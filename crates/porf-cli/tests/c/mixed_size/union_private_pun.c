// A private (non-escaping) union read through members of other widths: porf keeps a
// thread's own locals byte by byte, so type punning gives the bytes the target
// (x86-64, little-endian) gives. w = 0x1122334455667788 is stored as the bytes
// 88 77 66 55 44 33 22 11 (b[0] .. b[7]); h[0] is bytes 0-3 = 0x55667788, h[1] bytes
// 4-7 = 0x11223344, b[3] = 0x55. Writing b[7] = 0xff changes the top byte of w;
// writing h[0] = 1 replaces the low four bytes: w = 0xff22334400000001. One thread,
// no shared access: one execution, no error.
// expect: safe 1
// expect sc | --explorer reference: safe 1
#include <assert.h>
#include <stdint.h>

union word {
	uint64_t w;
	uint32_t h[2];
	uint16_t q[4];
	uint8_t b[8];
};

int main(void)
{
	union word x;
	x.w = 0x1122334455667788ull;
	assert(x.h[0] == 0x55667788u);
	assert(x.h[1] == 0x11223344u);
	assert(x.q[1] == 0x5566);
	assert(x.b[3] == 0x55);
	assert(x.b[0] == 0x88);
	x.b[7] = 0xff;
	assert(x.w == 0xff22334455667788ull);
	x.h[0] = 1;
	assert(x.w == 0xff22334400000001ull);
	assert(x.b[4] == 0x44 && x.b[1] == 0);
	return 0;
}

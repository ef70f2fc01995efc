// A global union written through its 8-byte member and read through a 4-byte one:
// global memory is one cell per scalar of the first member's layout, so the front end
// rejects the access with its position instead of answering from the wrong cell.
// expect: rejected "mixed-size or misaligned access to global memory"
#include <assert.h>
#include <stdint.h>

union word {
	uint64_t w;
	uint32_t h[2];
};

union word g;

int main(void)
{
	g.w = 5;
	assert(g.h[0] == 5);
	return 0;
}

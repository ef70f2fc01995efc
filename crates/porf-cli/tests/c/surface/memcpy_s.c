// C11 Annex K's memcpy_s (K.3.7.1.1): on a runtime-constraint violation nothing is
// copied, the destsz bytes at a non-null dest are zeroed and a nonzero value is
// returned; otherwise it copies like memcpy and returns 0. The program declares the
// function itself, as Annex K code written for libraries without it does. One
// thread: one complete execution, each assertion true by K.3.7.1.1.
// expect: safe 1
#include <assert.h>
#include <stddef.h>

typedef size_t rsize_t;
typedef int errno_t;
errno_t memcpy_s(void *restrict dest, rsize_t destsz, const void *restrict src, rsize_t count);

long src[4] = {10, 20, 30, 40};
long dst[4] = {1, 2, 3, 4};

int main(void)
{
	/* Success: the first two copied, the rest untouched. */
	assert(memcpy_s(dst, sizeof(dst), src, 2 * sizeof(long)) == 0);
	assert(dst[0] == 10 && dst[1] == 20 && dst[2] == 3 && dst[3] == 4);
	/* count > destsz: dst[0..2) zeroed, dst[2..4) untouched. */
	assert(memcpy_s(dst, 2 * sizeof(long), src, 3 * sizeof(long)) != 0);
	assert(dst[0] == 0 && dst[1] == 0 && dst[2] == 3 && dst[3] == 4);
	/* A null source: the whole destination zeroed. */
	assert(memcpy_s(dst, sizeof(dst), NULL, sizeof(long)) != 0);
	assert(dst[2] == 0 && dst[3] == 0);
	/* A null destination: nothing to zero, still a violation. */
	assert(memcpy_s(NULL, sizeof(dst), src, sizeof(long)) != 0);
	/* Overlap: [src+1, src+3) and [src, src+2) share src[1]. src zeroed over destsz. */
	assert(memcpy_s(src, 2 * sizeof(long), src + 1, 2 * sizeof(long)) != 0);
	assert(src[0] == 0 && src[1] == 0 && src[2] == 30);
	/* Adjacent ranges do not overlap: src[2..3) into src[3..4). */
	assert(memcpy_s(src + 3, sizeof(long), src + 2, sizeof(long)) == 0);
	assert(src[3] == 30);
	return 0;
}

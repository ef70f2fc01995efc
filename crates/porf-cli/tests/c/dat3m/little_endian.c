// clang's byte-order macro `__LITTLE_ENDIAN__`, which gcc lacks, is defined (porf's
// memory is little-endian) and `__BIG_ENDIAN__` is not; gcc's own macro agrees.
// expect rc11: safe 1
#ifndef __LITTLE_ENDIAN__
#error __LITTLE_ENDIAN__ is not defined
#endif
#ifdef __BIG_ENDIAN__
#error __BIG_ENDIAN__ is defined
#endif
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error gcc disagrees
#endif

int main(void)
{
	return __LITTLE_ENDIAN__ - 1;
}

/* porf bundled <string.h>. memset, memcpy, memmove and memcmp are front-end
 * builtins (typed accesses over the destination's static type, see porf-c's
 * lower/memfns.rs). strlen, strcmp and strcpy are plain C below: one non-atomic
 * char access per byte, so reading past a heap block, uninitialised heap bytes or a
 * freed block is reported as any other memory error, and the loops count against
 * --unroll like the program's own. */
#ifndef __PORF_STRING_H
#define __PORF_STRING_H
#include <stddef.h>
void *memset(void *s, int c, size_t n);
void *memcpy(void *dest, const void *src, size_t n);
void *memmove(void *dest, const void *src, size_t n);
int memcmp(const void *s1, const void *s2, size_t n);

static inline size_t strlen(const char *__s)
{
	size_t __n = 0;
	while (__s[__n] != 0)
		__n++;
	return __n;
}

/* C11 7.24.4.2: the sign of the difference of the first differing characters,
 * compared as unsigned char. */
static inline int strcmp(const char *__a, const char *__b)
{
	for (;; __a++, __b++) {
		unsigned char __x = *__a, __y = *__b;
		if (__x != __y)
			return __x - __y;
		if (__x == 0)
			return 0;
	}
}

static inline char *strcpy(char *__d, const char *__s)
{
	char *__r = __d;
	while ((*__d++ = *__s++) != 0)
		;
	return __r;
}
#endif

/* porf bundled <string.h>. memset, memcpy, memmove and memcmp are front-end
 * builtins (typed accesses over the destination's static type, see porf-c's
 * lower/memfns.rs). strlen, strnlen, strcmp, strncmp, strcpy, strncpy, strcat,
 * strncat, strchr, strrchr and strdup are plain C below: one non-atomic
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
/* C11 Annex K's memcpy_s (K.3.7.1.1), declared when the program defines
 * __STDC_WANT_LIB_EXT1__ to 1 (porf does not define __STDC_LIB_EXT1__: the rest of
 * Annex K is not there). A front-end builtin (lower/memcpy_s.rs), recognised by name
 * also when the program declares it itself. */
#if defined(__STDC_WANT_LIB_EXT1__) && __STDC_WANT_LIB_EXT1__
#ifndef __PORF_RSIZE_T
#define __PORF_RSIZE_T
typedef size_t rsize_t;
typedef int errno_t;
#define RSIZE_MAX (~(size_t)0 >> 1)
#endif
errno_t memcpy_s(void *restrict dest, rsize_t destsz, const void *restrict src, rsize_t count);
#endif

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

static inline size_t strnlen(const char *__s, size_t __max)
{
	size_t __n = 0;
	while (__n < __max && __s[__n] != 0)
		__n++;
	return __n;
}

/* C11 7.24.4.4: at most n characters compared, as unsigned char. */
static inline int strncmp(const char *__a, const char *__b, size_t __n)
{
	for (; __n > 0; __n--, __a++, __b++) {
		unsigned char __x = *__a, __y = *__b;
		if (__x != __y)
			return __x - __y;
		if (__x == 0)
			return 0;
	}
	return 0;
}

/* C11 7.24.2.4: copies at most n characters; a shorter source is padded with NULs to
 * n characters, a longer one leaves the destination unterminated. */
static inline char *strncpy(char *__d, const char *__s, size_t __n)
{
	size_t __i = 0;
	for (; __i < __n && __s[__i] != 0; __i++)
		__d[__i] = __s[__i];
	for (; __i < __n; __i++)
		__d[__i] = 0;
	return __d;
}

static inline char *strcat(char *__d, const char *__s)
{
	strcpy(__d + strlen(__d), __s);
	return __d;
}

/* C11 7.24.3.2: appends at most n characters and always a terminating NUL. */
static inline char *strncat(char *__d, const char *__s, size_t __n)
{
	char *__e = __d + strlen(__d);
	size_t __i = 0;
	for (; __i < __n && __s[__i] != 0; __i++)
		__e[__i] = __s[__i];
	__e[__i] = 0;
	return __d;
}

/* C11 7.24.5.2: the first c (converted to char); the terminating NUL is part of the
 * string. */
static inline char *strchr(const char *__s, int __c)
{
	for (;; __s++) {
		if (*__s == (char)__c)
			return (char *)__s;
		if (*__s == 0)
			return NULL;
	}
}

static inline char *strrchr(const char *__s, int __c)
{
	const char *__r = NULL;
	for (;; __s++) {
		if (*__s == (char)__c)
			__r = __s;
		if (*__s == 0)
			return (char *)__r;
	}
}

void *malloc(size_t size);
static inline char *strdup(const char *__s)
{
	size_t __n = strlen(__s) + 1;
	char *__d = (char *)malloc(__n);
	if (__d)
		strcpy(__d, __s);
	return __d;
}
#endif

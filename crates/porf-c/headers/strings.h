/* porf bundled <strings.h> (POSIX). ffs, ffsl and ffsll are GCC's __builtin_ffs*
 * (1 + the index of the least significant set bit, 0 for 0). strcasecmp and
 * strncasecmp compare in the "C" locale (ASCII case folding, as <ctype.h>'s tolower),
 * plain C like <string.h>'s strcmp: one non-atomic char access per byte. index and
 * rindex are strchr and strrchr. bzero, bcopy and bcmp are macros over memset, memmove
 * and memcmp, so they are typed by the pointer as written at the call, exactly like
 * those (porf-c's lower/memfns.rs: a constant size over objects of the pointee's type). */
#ifndef __PORF_STRINGS_H
#define __PORF_STRINGS_H
#include <stddef.h>
#include <string.h>

static inline int ffs(int __i) { return __builtin_ffs(__i); }
static inline int ffsl(long __i) { return __builtin_ffsl(__i); }
static inline int ffsll(long long __i) { return __builtin_ffsll(__i); }

static inline int __porf_fold(unsigned char __c)
{
	return __c >= 'A' && __c <= 'Z' ? __c - 'A' + 'a' : __c;
}

/* The sign of the difference of the first characters that differ after folding. */
static inline int strcasecmp(const char *__a, const char *__b)
{
	for (;; __a++, __b++) {
		int __x = __porf_fold(*__a), __y = __porf_fold(*__b);
		if (__x != __y)
			return __x - __y;
		if (__x == 0)
			return 0;
	}
}

static inline int strncasecmp(const char *__a, const char *__b, size_t __n)
{
	for (; __n > 0; __n--, __a++, __b++) {
		int __x = __porf_fold(*__a), __y = __porf_fold(*__b);
		if (__x != __y)
			return __x - __y;
		if (__x == 0)
			return 0;
	}
	return 0;
}

static inline char *index(const char *__s, int __c) { return strchr(__s, __c); }
static inline char *rindex(const char *__s, int __c) { return strrchr(__s, __c); }

#define bzero(__s, __n) ((void)memset((__s), 0, (__n)))
#define bcopy(__src, __dst, __n) ((void)memmove((__dst), (__src), (__n)))
#define bcmp(__a, __b, __n) memcmp((__a), (__b), (__n))
#endif

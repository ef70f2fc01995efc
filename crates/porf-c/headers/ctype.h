/* porf bundled <ctype.h>: the character classes and case mappings of the "C" locale
 * (ASCII), as plain C with no memory accesses. The argument is an int holding an
 * unsigned char value or EOF (C11 7.4p1); EOF and values above 127 are in no class
 * and map to themselves. */
#ifndef __PORF_CTYPE_H
#define __PORF_CTYPE_H
static inline int isdigit(int __c) { return __c >= '0' && __c <= '9'; }
static inline int isupper(int __c) { return __c >= 'A' && __c <= 'Z'; }
static inline int islower(int __c) { return __c >= 'a' && __c <= 'z'; }
static inline int isalpha(int __c) { return isupper(__c) || islower(__c); }
static inline int isalnum(int __c) { return isalpha(__c) || isdigit(__c); }
static inline int isxdigit(int __c)
{
	return isdigit(__c) || (__c >= 'a' && __c <= 'f') || (__c >= 'A' && __c <= 'F');
}
static inline int isspace(int __c) { return __c == ' ' || (__c >= '\t' && __c <= '\r'); }
static inline int isblank(int __c) { return __c == ' ' || __c == '\t'; }
static inline int iscntrl(int __c) { return (__c >= 0 && __c < 32) || __c == 127; }
static inline int isprint(int __c) { return __c >= 32 && __c < 127; }
static inline int isgraph(int __c) { return __c > 32 && __c < 127; }
static inline int ispunct(int __c) { return isgraph(__c) && !isalnum(__c); }
static inline int isascii(int __c) { return __c >= 0 && __c < 128; }
static inline int toupper(int __c) { return islower(__c) ? __c - 'a' + 'A' : __c; }
static inline int tolower(int __c) { return isupper(__c) ? __c - 'A' + 'a' : __c; }
#endif

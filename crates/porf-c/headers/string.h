/* porf bundled <string.h>. memset, memcpy and memmove are front-end builtins
 * (typed stores over the destination's static type, see porf-c's lower/memfns.rs);
 * the other functions are declared so that calls get a clear "unsupported"
 * diagnostic. */
#ifndef __PORF_STRING_H
#define __PORF_STRING_H
#include <stddef.h>
void *memset(void *s, int c, size_t n);
void *memcpy(void *dest, const void *src, size_t n);
void *memmove(void *dest, const void *src, size_t n);
int memcmp(const void *s1, const void *s2, size_t n);
size_t strlen(const char *s);
int strcmp(const char *s1, const char *s2);
char *strcpy(char *dest, const char *src);
#endif

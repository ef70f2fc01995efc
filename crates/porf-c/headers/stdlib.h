/* porf bundled <stdlib.h>. malloc, calloc, free and abort are builtins; the other
 * declarations exist so that calls get a clear "unsupported" diagnostic. */
#ifndef __PORF_STDLIB_H
#define __PORF_STDLIB_H
#include <stddef.h>
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
void *malloc(size_t size);
void *calloc(size_t nmemb, size_t size);
void free(void *ptr);
_Noreturn void abort(void);
void *realloc(void *ptr, size_t size);
_Noreturn void exit(int status);
int abs(int j);
long labs(long j);
int atoi(const char *nptr);
int rand(void);
void srand(unsigned int seed);
#endif

/* porf bundled <stdlib.h>. malloc, calloc, free, abort and exit are builtins
 * (exit(code) in main's thread is main returning code; in another thread it is
 * unsupported); realloc is below; the other declarations exist so that calls get a
 * clear "unsupported" diagnostic. */
#ifndef __PORF_STDLIB_H
#define __PORF_STDLIB_H
#include <stddef.h>
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
void *malloc(size_t size);
void *calloc(size_t nmemb, size_t size);
void free(void *ptr);
void __porf_check(int __cond, const char *__msg);
void __porf_unsupported(const char *__msg);
_Noreturn void abort(void);
/* realloc(NULL, n) is malloc(n). Growing or shrinking an allocated block would copy
 * its bytes, but porf's heap holds typed cells only: not supported. */
static inline void *realloc(void *__p, size_t __n)
{
	if (__p == 0)
		return malloc(__n);
	__porf_unsupported("realloc of an allocated block is not supported (porf cannot copy untyped heap memory): only realloc(NULL, n), which is malloc(n)");
	return 0;
}
/* C11 7.22.3.1: the alignment must be a valid one (a power of two). porf's heap
 * blocks are 8-byte aligned, so larger alignments are not supported. */
static inline void *aligned_alloc(size_t __align, size_t __size)
{
	__porf_check(__align != 0 && (__align & (__align - 1)) == 0,
		     "invalid alignment in aligned_alloc (not a power of two)");
	if (__align > 8)
		__porf_unsupported("aligned_alloc with an alignment above 8 bytes is not supported");
	return malloc(__size);
}
_Noreturn void exit(int status);
int abs(int j);
long labs(long j);
int atoi(const char *nptr);
int rand(void);
void srand(unsigned int seed);
#endif

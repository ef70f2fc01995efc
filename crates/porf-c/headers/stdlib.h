/* porf bundled <stdlib.h>. malloc, calloc, realloc, free, abort and exit are builtins
 * (exit(code) in main's thread is main returning code; in another thread it is
 * unsupported); the other declarations exist so that calls get a
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
/* realloc is a builtin: realloc(NULL, n) is malloc(n); realloc(p, 0) frees p and
 * returns NULL (glibc); otherwise the first min(old, n) bytes are copied cell by cell
 * with the type of p's pointee (a void * argument is unsupported). */
void *realloc(void *ptr, size_t size);
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

/* porf bundled <stdlib.h>. malloc, calloc, realloc, free, abort and exit are builtins
 * (exit(code) in main's thread is main returning code; in another thread it ends that
 * thread, as GenMC's exit does; the other threads run on in both cases); the other
 * declarations exist so that calls get a clear "unsupported" diagnostic. */
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

/* rand, srand, rand_r: a deterministic stand-in, the linear congruential generator of
 * C11's sample implementation (7.22.2.2p5; POSIX's rand_r sample is the same), with
 * RAND_MAX 32767. Each thread draws from its own sequence, kept in its private store
 * (no events), seeded with 1 until the thread calls srand: so the values a thread
 * gets do not depend on the interleaving (glibc's one locked sequence for all threads
 * would make them depend on it), and srand in main does not seed other threads.
 * rand_r(&s) steps the caller's own seed s. No value is a nondeterministic choice:
 * for those, use __VERIFIER_nondet_int with --nondet-range. */
#define RAND_MAX 32767
long __porf_private_get(long __key);
void __porf_private_set(long __key, long __val);
#define __PORF_RAND_KEY (-(1L << 50))
static inline int rand_r(unsigned int *__seed)
{
	*__seed = *__seed * 1103515245u + 12345u;
	return (int)(*__seed / 65536u % 32768u);
}
static inline void srand(unsigned int __seed)
{
	/* Stored plus one: 0 in the private store means "never seeded". */
	__porf_private_set(__PORF_RAND_KEY, (long)__seed + 1);
}
static inline int rand(void)
{
	long __s = __porf_private_get(__PORF_RAND_KEY);
	unsigned int __state = __s == 0 ? 1u : (unsigned int)(__s - 1);
	int __r = rand_r(&__state);
	__porf_private_set(__PORF_RAND_KEY, (long)__state + 1);
	return __r;
}
#endif

/* porf bundled <semaphore.h>: POSIX unnamed semaphores, written in C over porf's
 * atomics. __value is the count (-1 once destroyed).
 * - sem_post is a release fetch-add of 1; sem_wait and sem_trywait take one unit
 *   with an acquire compare-exchange from the count they expect (1 first, then the
 *   count a failed attempt read), so every wait that returns happens after the post
 *   whose unit it took (POSIX 4.12: these functions synchronise memory).
 * - sem_wait on a count of 0 waits for a later post (__porf_await, as a condition
 *   variable wait or a lock does): a wait no post ever satisfies waits for good, and
 *   when every unfinished thread waits so (or for a lock or a join) the execution is
 *   a deadlock. sem_trywait on a count of 0 fails with EAGAIN.
 * - Waiting on, posting to or destroying a destroyed semaphore is an error; a
 *   semaphore never initialised is one of count 0 (its bytes are zero in the global
 *   area; in the heap, a read of uninitialised memory). A post beyond SEM_VALUE_MAX
 *   is an error (POSIX: EOVERFLOW; porf's count would wrap). sem_timedwait,
 *   sem_open and named semaphores are not supported (sem_timedwait is an
 *   "unsupported" error when it runs). */
#ifndef __PORF_SEMAPHORE_H
#define __PORF_SEMAPHORE_H
#include <stddef.h>
#include <errno.h>
void __porf_await(_Bool __cond);
void __porf_check(int __cond, const char *__msg);
void __porf_unsupported(const char *__msg);
typedef struct { _Atomic int __value; } sem_t;
#define SEM_VALUE_MAX 2147483647
#define SEM_FAILED ((sem_t *)0)
struct timespec;

static inline int sem_init(sem_t *__s, int __pshared, unsigned int __value)
{
	if (__value > SEM_VALUE_MAX) {
		errno = EINVAL;
		return -1;
	}
	atomic_init(&__s->__value, (int)__value);
	return 0;
}
static inline int sem_destroy(sem_t *__s)
{
	int __v = atomic_load_explicit(&__s->__value, 0 /* relaxed */);
	__porf_check(__v >= 0, "sem_destroy of a destroyed semaphore");
	atomic_store_explicit(&__s->__value, -1, 0 /* relaxed */);
	return 0;
}
static inline int sem_wait(sem_t *__s)
{
	int __v = 1;
	while (!atomic_compare_exchange_strong_explicit(&__s->__value, &__v, __v - 1,
							 2 /* acquire */, 0 /* relaxed */)) {
		__porf_check(__v >= 0, "sem_wait on a destroyed semaphore");
		__porf_await(__v > 0);
	}
	return 0;
}
static inline int sem_trywait(sem_t *__s)
{
	int __v = 1;
	while (!atomic_compare_exchange_strong_explicit(&__s->__value, &__v, __v - 1,
							 2 /* acquire */, 0 /* relaxed */)) {
		__porf_check(__v >= 0, "sem_trywait on a destroyed semaphore");
		if (__v == 0) {
			errno = EAGAIN;
			return -1;
		}
	}
	return 0;
}
static inline int sem_post(sem_t *__s)
{
	int __v = atomic_fetch_add_explicit(&__s->__value, 1, 3 /* release */);
	__porf_check(__v >= 0, "sem_post to a destroyed semaphore");
	__porf_check(__v != SEM_VALUE_MAX, "sem_post beyond SEM_VALUE_MAX");
	return 0;
}
static inline int sem_getvalue(sem_t *__s, int *__out)
{
	int __v = atomic_load_explicit(&__s->__value, 0 /* relaxed */);
	__porf_check(__v >= 0, "sem_getvalue of a destroyed semaphore");
	*__out = __v;
	return 0;
}
static inline int sem_timedwait(sem_t *__s, const struct timespec *__t)
{
	__porf_unsupported("sem_timedwait is not supported (porf has no time)");
	return -1;
}
#endif

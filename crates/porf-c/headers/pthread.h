/* porf bundled <pthread.h>: threads and mutexes. A zero-initialised mutex is
 * unlocked; its first (and only) cell, __lock, is the lock word. */
#ifndef __PORF_PTHREAD_H
#define __PORF_PTHREAD_H
#include <stddef.h>

typedef unsigned long pthread_t;
typedef struct { int __unused; } pthread_attr_t;
typedef struct { int __lock; } pthread_mutex_t;
typedef struct { int __unused; } pthread_mutexattr_t;
typedef struct { int __unused; } pthread_cond_t;
typedef struct { int __unused; } pthread_condattr_t;

#define PTHREAD_MUTEX_INITIALIZER { 0 }

int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
		   void *(*start_routine)(void *), void *arg);
int pthread_join(pthread_t thread, void **retval);
_Noreturn void pthread_exit(void *retval);
pthread_t pthread_self(void);
int pthread_equal(pthread_t t1, pthread_t t2);

int pthread_attr_init(pthread_attr_t *attr);
int pthread_attr_destroy(pthread_attr_t *attr);

int pthread_mutex_init(pthread_mutex_t *mutex, const pthread_mutexattr_t *attr);
int pthread_mutex_lock(pthread_mutex_t *mutex);
int pthread_mutex_trylock(pthread_mutex_t *mutex);
int pthread_mutex_unlock(pthread_mutex_t *mutex);
int pthread_mutex_destroy(pthread_mutex_t *mutex);
int pthread_mutexattr_init(pthread_mutexattr_t *attr);
int pthread_mutexattr_destroy(pthread_mutexattr_t *attr);

/* Declared so that programs using them get a clear "unsupported" diagnostic. */
int pthread_cond_init(pthread_cond_t *cond, const pthread_condattr_t *attr);
int pthread_cond_wait(pthread_cond_t *cond, pthread_mutex_t *mutex);
int pthread_cond_signal(pthread_cond_t *cond);
int pthread_cond_broadcast(pthread_cond_t *cond);
int pthread_cond_destroy(pthread_cond_t *cond);

/* Barriers (POSIX pthread_barrier_*), written in C over porf's atomics.
 *
 * __arrived counts arrivals since initialisation (one acq_rel fetch-add per
 * pthread_barrier_wait, as GenMC's barrier_wait is one acq_rel fetch-and-increment);
 * __count is the barrier's size (0: never initialised, -1: destroyed). A thread whose
 * arrival is the k-th (k from 1) belongs to round r = (k-1)/count; the last arrival of
 * its round (k a multiple of count) goes on at once, the others wait until they read
 * exactly that last arrival's write (acquire), as an assume: an execution in which the
 * read sees another value is blocked, never complete, exactly as GenMC's barrier
 * without BAM blocks a wait that does not read the last arrival. Through the
 * fetch-add chain every arrival of the round happens before every thread leaving it.
 * Waiting on a barrier that was never initialised or was destroyed is a memory error.
 * Re-initialising a barrier is not diagnosed. */
void __VERIFIER_assume(_Bool __cond);
void __porf_check(int __cond, const char *__msg);
typedef struct { _Atomic int __arrived; int __count; } pthread_barrier_t;
typedef struct { int __unused; } pthread_barrierattr_t;
#define PTHREAD_BARRIER_SERIAL_THREAD (-1)

static inline int pthread_barrier_init(pthread_barrier_t *__b,
				       const pthread_barrierattr_t *__attr,
				       unsigned int __count)
{
	if (__count == 0 || __count > 0x7fffffff)
		return 22; /* EINVAL */
	atomic_init(&__b->__arrived, 0);
	__b->__count = (int)__count;
	return 0;
}

static inline int pthread_barrier_wait(pthread_barrier_t *__b)
{
	int __n = __b->__count;
	__porf_check(__n > 0, "pthread_barrier_wait on a barrier that is not initialised (or was destroyed)");
	int __k = atomic_fetch_add_explicit(&__b->__arrived, 1, 4 /* acq_rel */) + 1;
	if (__k % __n == 0)
		return PTHREAD_BARRIER_SERIAL_THREAD;
	__VERIFIER_assume(atomic_load_explicit(&__b->__arrived, 2 /* acquire */) ==
			  (__k / __n + 1) * __n);
	return 0;
}

static inline int pthread_barrier_destroy(pthread_barrier_t *__b)
{
	__b->__count = -1;
	return 0;
}

static inline int pthread_barrierattr_init(pthread_barrierattr_t *__a) { return 0; }
static inline int pthread_barrierattr_destroy(pthread_barrierattr_t *__a) { return 0; }

/* Spin locks: a spin lock is a mutex (lock, trylock and unlock as
 * pthread_mutex_*, so waiting is blocking rather than spinning; the executions and
 * errors are those of the spin loop with every failed attempt removed). */
typedef pthread_mutex_t pthread_spinlock_t;
#define PTHREAD_PROCESS_PRIVATE 0
#define PTHREAD_PROCESS_SHARED 1
static inline int pthread_spin_init(pthread_spinlock_t *__l, int __pshared)
{
	return pthread_mutex_init(__l, NULL);
}
static inline int pthread_spin_destroy(pthread_spinlock_t *__l) { return pthread_mutex_destroy(__l); }
static inline int pthread_spin_lock(pthread_spinlock_t *__l) { return pthread_mutex_lock(__l); }
static inline int pthread_spin_trylock(pthread_spinlock_t *__l) { return pthread_mutex_trylock(__l); }
static inline int pthread_spin_unlock(pthread_spinlock_t *__l) { return pthread_mutex_unlock(__l); }
#endif

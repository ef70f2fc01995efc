/* porf bundled <pthread.h>: threads, mutexes (normal, recursive, error-checking),
 * condition variables, read-write locks, once, thread-specific data, barriers, spin
 * locks. A zero-initialised mutex is an unlocked normal mutex. */
#ifndef __PORF_PTHREAD_H
#define __PORF_PTHREAD_H
#include <stddef.h>
/* As glibc's, <pthread.h> includes <time.h> (struct timespec, for timed waits). */
#include <time.h>

typedef unsigned long pthread_t;
/* Thread attributes: plain data. Only the detach state has an effect (see
 * pthread_detach below); the stack size, guard size, scope, scheduling policy and
 * inheritance are kept and read back but mean nothing to porf. __detach is read by
 * the front end's pthread_create (crates/porf-c/src/lower/builtins.rs: offset 0). */
typedef struct {
	int __detach;
	int __scope;
	int __inheritsched;
	int __policy;
	unsigned long __stacksize;
	unsigned long __guardsize;
} pthread_attr_t;
enum { PTHREAD_CREATE_JOINABLE = 0, PTHREAD_CREATE_DETACHED = 1 };
enum { PTHREAD_SCOPE_SYSTEM = 0, PTHREAD_SCOPE_PROCESS = 1 };
enum { PTHREAD_INHERIT_SCHED = 0, PTHREAD_EXPLICIT_SCHED = 1 };
#define PTHREAD_STACK_MIN 16384

/* porf's own primitives (see porf.h): the calling thread's private store (no events)
 * and a blocking wait on the value of the read just before it. */
long long __porf_private_get(long long __key);
void __porf_private_set(long long __key, long long __val);
void __porf_await(_Bool __cond);
void __porf_awaits(long long __val);
void __porf_check(int __cond, const char *__msg);
void __porf_unsupported(const char *__msg);
int __porf_is_global(const void *__p);

/* Mutexes. __lock is the lock word of the engine's lock actions (0: unlocked),
 * __kind the type (layout relied on by the front end, crates/porf-c/src/lower/mutex.rs).
 * pthread_mutex_lock/trylock/unlock/init are recognised by the front end: ownership is
 * the calling thread's own knowledge (its private store counts its holds), so the type
 * is read only on a re-lock or an unlock by a thread that does not hold the mutex. */
typedef struct { int __lock; int __kind; } pthread_mutex_t;
/* Mutex attributes: __kind first (read by pthread_mutex_init in the front end). The
 * protocol, priority ceiling and process-shared attributes are kept and read back but
 * change nothing, and exactly so: porf's threads have no scheduling priorities (every
 * interleaving is explored whatever the priorities), so priority inheritance and
 * protection (PTHREAD_PRIO_INHERIT, PTHREAD_PRIO_PROTECT) allow the same executions as
 * PTHREAD_PRIO_NONE, and a program is one process, so PTHREAD_PROCESS_SHARED behaves as
 * PTHREAD_PROCESS_PRIVATE. Robust mutexes are not provided. */
typedef struct { int __kind; int __protocol; int __prioceiling; int __pshared; } pthread_mutexattr_t;
enum { PTHREAD_PRIO_NONE = 0, PTHREAD_PRIO_INHERIT = 1, PTHREAD_PRIO_PROTECT = 2 };
enum {
	PTHREAD_MUTEX_NORMAL = 0,
	PTHREAD_MUTEX_RECURSIVE = 1,
	PTHREAD_MUTEX_ERRORCHECK = 2,
	PTHREAD_MUTEX_DEFAULT = PTHREAD_MUTEX_NORMAL,
	PTHREAD_MUTEX_TIMED_NP = PTHREAD_MUTEX_NORMAL,
	PTHREAD_MUTEX_RECURSIVE_NP = PTHREAD_MUTEX_RECURSIVE,
	PTHREAD_MUTEX_ERRORCHECK_NP = PTHREAD_MUTEX_ERRORCHECK,
	PTHREAD_MUTEX_FAST_NP = PTHREAD_MUTEX_NORMAL
};

#define PTHREAD_MUTEX_INITIALIZER { 0, 0 }
#define PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP { 0, PTHREAD_MUTEX_RECURSIVE }
#define PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP { 0, PTHREAD_MUTEX_ERRORCHECK }

int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
		   void *(*start_routine)(void *), void *arg);
int pthread_join(pthread_t thread, void **retval);
_Noreturn void pthread_exit(void *retval);
pthread_t pthread_self(void);
int pthread_equal(pthread_t t1, pthread_t t2);


/* Detached threads. A thread is detached by pthread_detach or by creating it with a
 * PTHREAD_CREATE_DETACHED attribute; it runs to its end like any thread (porf explores
 * every thread to its end, after main's return too), nobody may join it. What porf
 * checks is the detaching thread's own knowledge, kept in its private store (no
 * events): pthread_join of a thread that the joining thread itself detached is an
 * error, and so is a second pthread_detach of it by the same thread (POSIX: undefined
 * behaviour; glibc returns EINVAL). A join of a thread detached by another thread is
 * not diagnosed. */
#define __PORF_DETACHED_KEY(t) (-(1L << 50) - 1 - (long)(t))
static inline int pthread_detach(pthread_t __t)
{
	__porf_check(__porf_private_get(__PORF_DETACHED_KEY(__t)) == 0,
		     "pthread_detach of a thread this thread already detached (undefined behaviour)");
	__porf_private_set(__PORF_DETACHED_KEY(__t), 1);
	return 0;
}

static inline int pthread_attr_init(pthread_attr_t *__a)
{
	__a->__detach = PTHREAD_CREATE_JOINABLE;
	__a->__scope = PTHREAD_SCOPE_SYSTEM;
	__a->__inheritsched = PTHREAD_INHERIT_SCHED;
	__a->__policy = 0;
	__a->__stacksize = 8388608;
	__a->__guardsize = 4096;
	return 0;
}
static inline int pthread_attr_destroy(pthread_attr_t *__a) { return 0; }
static inline int pthread_attr_setdetachstate(pthread_attr_t *__a, int __s)
{
	if (__s != PTHREAD_CREATE_JOINABLE && __s != PTHREAD_CREATE_DETACHED)
		return 22; /* EINVAL */
	__a->__detach = __s;
	return 0;
}
static inline int pthread_attr_getdetachstate(const pthread_attr_t *__a, int *__s)
{
	*__s = __a->__detach;
	return 0;
}
static inline int pthread_attr_setstacksize(pthread_attr_t *__a, size_t __n)
{
	if (__n < PTHREAD_STACK_MIN)
		return 22; /* EINVAL */
	__a->__stacksize = __n;
	return 0;
}
static inline int pthread_attr_getstacksize(const pthread_attr_t *__a, size_t *__n)
{
	*__n = __a->__stacksize;
	return 0;
}
static inline int pthread_attr_setguardsize(pthread_attr_t *__a, size_t __n)
{
	__a->__guardsize = __n;
	return 0;
}
static inline int pthread_attr_getguardsize(const pthread_attr_t *__a, size_t *__n)
{
	*__n = __a->__guardsize;
	return 0;
}
static inline int pthread_attr_setscope(pthread_attr_t *__a, int __s)
{
	if (__s != PTHREAD_SCOPE_SYSTEM && __s != PTHREAD_SCOPE_PROCESS)
		return 22; /* EINVAL */
	__a->__scope = __s;
	return 0;
}
static inline int pthread_attr_getscope(const pthread_attr_t *__a, int *__s)
{
	*__s = __a->__scope;
	return 0;
}
static inline int pthread_attr_setinheritsched(pthread_attr_t *__a, int __s)
{
	__a->__inheritsched = __s;
	return 0;
}
static inline int pthread_attr_getinheritsched(const pthread_attr_t *__a, int *__s)
{
	*__s = __a->__inheritsched;
	return 0;
}
static inline int pthread_attr_setschedpolicy(pthread_attr_t *__a, int __p)
{
	__a->__policy = __p;
	return 0;
}
static inline int pthread_attr_getschedpolicy(const pthread_attr_t *__a, int *__p)
{
	*__p = __a->__policy;
	return 0;
}

int pthread_mutex_init(pthread_mutex_t *mutex, const pthread_mutexattr_t *attr);
int pthread_mutex_lock(pthread_mutex_t *mutex);
int pthread_mutex_trylock(pthread_mutex_t *mutex);
int pthread_mutex_unlock(pthread_mutex_t *mutex);
int pthread_mutex_destroy(pthread_mutex_t *mutex);

static inline int pthread_mutexattr_init(pthread_mutexattr_t *__a)
{
	__a->__kind = PTHREAD_MUTEX_DEFAULT;
	__a->__protocol = PTHREAD_PRIO_NONE;
	__a->__prioceiling = 0;
	__a->__pshared = 0; /* PTHREAD_PROCESS_PRIVATE */
	return 0;
}
static inline int pthread_mutexattr_destroy(pthread_mutexattr_t *__a) { return 0; }
static inline int pthread_mutexattr_settype(pthread_mutexattr_t *__a, int __kind)
{
	if (__kind < PTHREAD_MUTEX_NORMAL || __kind > PTHREAD_MUTEX_ERRORCHECK)
		return 22; /* EINVAL */
	__a->__kind = __kind;
	return 0;
}
static inline int pthread_mutexattr_gettype(const pthread_mutexattr_t *__a, int *__kind)
{
	*__kind = __a->__kind;
	return 0;
}
static inline int pthread_mutexattr_setprotocol(pthread_mutexattr_t *__a, int __p)
{
	if (__p < PTHREAD_PRIO_NONE || __p > PTHREAD_PRIO_PROTECT)
		return 22; /* EINVAL */
	__a->__protocol = __p;
	return 0;
}
static inline int pthread_mutexattr_getprotocol(const pthread_mutexattr_t *__a, int *__p)
{
	*__p = __a->__protocol;
	return 0;
}
static inline int pthread_mutexattr_setprioceiling(pthread_mutexattr_t *__a, int __c)
{
	__a->__prioceiling = __c;
	return 0;
}
static inline int pthread_mutexattr_getprioceiling(const pthread_mutexattr_t *__a, int *__c)
{
	*__c = __a->__prioceiling;
	return 0;
}
static inline int pthread_mutexattr_setpshared(pthread_mutexattr_t *__a, int __s)
{
	if (__s != 0 && __s != 1) /* PTHREAD_PROCESS_PRIVATE, PTHREAD_PROCESS_SHARED */
		return 22; /* EINVAL */
	__a->__pshared = __s;
	return 0;
}
static inline int pthread_mutexattr_getpshared(const pthread_mutexattr_t *__a, int *__s)
{
	*__s = __a->__pshared;
	return 0;
}

/* Condition variables, written in C over porf's atomics. __w packs the waiters: bits
 * 32..39 count the waits begun on this condition variable (wait number i is "waiter
 * i"), bit i (i < 32) is set once waiter i is woken.
 * - A wait registers (a fetch-add on __w) while it holds the mutex, so registering and
 *   releasing the mutex are one step for every thread that synchronises through the
 *   mutex, then unlocks, waits until it reads its bit set (acquire), and re-locks.
 * - A signal wakes exactly one of the waiters registered and not yet woken in __w's
 *   modification order at the signal (a compare-exchange, release), and the explorer
 *   tries each of them in turn (__porf_choose); with no such waiter it does nothing
 *   (only a load, as glibc's). POSIX lets a signal wake more than one thread: such a
 *   wake-up is a spurious wake-up of the others, which porf does not model (below).
 * - A broadcast wakes every waiter registered and not yet woken.
 * - No spurious wake-ups: a wait returns only after a signal or broadcast chose it.
 * - A wait no signal or broadcast ever chooses (a lost wake-up, or a signal that woke
 *   another waiter) waits for good: if every unfinished thread waits so (or for a
 *   lock or a join), the execution is a deadlock (__porf_await: BlockReason::Wait).
 * - At most 32 waits on one condition variable per execution (an "unsupported"
 *   error beyond). pthread_cond_timedwait is not supported. */
long long __porf_choose(long long __n);
typedef struct { _Atomic long long __w; } pthread_cond_t;
typedef struct { int __unused; } pthread_condattr_t;
#define PTHREAD_COND_INITIALIZER { 0 }

static inline int pthread_cond_init(pthread_cond_t *__c, const pthread_condattr_t *__attr)
{
	atomic_init(&__c->__w, 0);
	return 0;
}
static inline int pthread_cond_destroy(pthread_cond_t *__c) { return 0; }
/* The bits of the waiters registered in __s and not woken. */
static inline long long __porf_cond_waiting(long long __s)
{
	long long __n = __s >> 32;
	long long __registered = __n >= 32 ? 0xffffffffLL : (1LL << __n) - 1;
	return __registered & ~__s;
}
static inline int pthread_cond_signal(pthread_cond_t *__c)
{
	long long __s = atomic_load_explicit(&__c->__w, 0 /* relaxed */);
	for (;;) {
		long long __waiting = __porf_cond_waiting(__s);
		if (__waiting == 0)
			return 0;
		/* The k-th waiting waiter, for every k. */
		long long __k = __porf_choose(__builtin_popcountll(__waiting));
		for (; __k > 0; __k--)
			__waiting &= __waiting - 1;
		long long __bit = __waiting & -__waiting;
		if (atomic_compare_exchange_strong_explicit(&__c->__w, &__s, __s | __bit,
							    3 /* release */, 0 /* relaxed */))
			return 0;
	}
}
static inline int pthread_cond_broadcast(pthread_cond_t *__c)
{
	long long __s = atomic_load_explicit(&__c->__w, 0 /* relaxed */);
	for (;;) {
		long long __waiting = __porf_cond_waiting(__s);
		if (__waiting == 0)
			return 0;
		if (atomic_compare_exchange_strong_explicit(&__c->__w, &__s, __s | __waiting,
							    3 /* release */, 0 /* relaxed */))
			return 0;
	}
}
static inline int pthread_cond_wait(pthread_cond_t *__c, pthread_mutex_t *__m)
{
	long long __i = atomic_fetch_add_explicit(&__c->__w, 1LL << 32, 0 /* relaxed */) >> 32;
	if (__i >= 32)
		__porf_unsupported("more than 32 waits on one condition variable in one execution");
	int __r = pthread_mutex_unlock(__m);
	if (__r != 0) {
		/* The wait did not begin: no signal may choose this waiter. */
		atomic_fetch_or_explicit(&__c->__w, 1LL << __i, 0 /* relaxed */);
		return __r;
	}
	__porf_await((atomic_load_explicit(&__c->__w, 2 /* acquire */) >> __i) & 1);
	return pthread_mutex_lock(__m);
}
static inline int pthread_cond_timedwait(pthread_cond_t *__c, pthread_mutex_t *__m,
					 const struct timespec *__t)
{
	__porf_unsupported("pthread_cond_timedwait is not supported (porf has no time)");
	return 0;
}
static inline int pthread_condattr_init(pthread_condattr_t *__a) { return 0; }
static inline int pthread_condattr_destroy(pthread_condattr_t *__a) { return 0; }

/* Read-write locks, in C over porf's atomics. __state is the number of readers
 * holding the lock, -1 while a writer holds it, -2 once destroyed. Acquiring is an
 * acquire compare-exchange from the value the thread expects (0 first; a reader
 * retries with the reader count a failed attempt read); an attempt that read a value
 * that forbids acquiring waits for a later write (__porf_await); releasing is a release fetch-add (+1 for the writer, -1
 * for a reader), so every acquisition happens after the releases it follows. The
 * calling thread's private store, under the lock's address, says what it holds (-1:
 * write, n > 0: n read holds): unlocking a lock the thread does not hold is an error;
 * a thread that write-locks a lock it holds, or read-locks one it write-holds, waits
 * for itself (a deadlock). Readers may re-acquire (recursive read locks). Writers are
 * not preferred: a reader may acquire while a writer waits. */
typedef struct { _Atomic int __state; } pthread_rwlock_t;
typedef struct { int __pshared; } pthread_rwlockattr_t;
#define PTHREAD_RWLOCK_INITIALIZER { 0 }
#define __PORF_RW_DESTROYED (-2)

static inline int pthread_rwlock_init(pthread_rwlock_t *__l, const pthread_rwlockattr_t *__a)
{
	atomic_init(&__l->__state, 0);
	return 0;
}
static inline int pthread_rwlock_destroy(pthread_rwlock_t *__l)
{
	atomic_init(&__l->__state, __PORF_RW_DESTROYED);
	return 0;
}
static inline int pthread_rwlock_rdlock(pthread_rwlock_t *__l)
{
	int __v = 0;
	while (!atomic_compare_exchange_strong_explicit(&__l->__state, &__v, __v + 1,
							 2 /* acquire */, 0 /* relaxed */)) {
		__porf_check(__v != __PORF_RW_DESTROYED, "pthread_rwlock_rdlock of a destroyed read-write lock");
		__porf_await(__v >= 0);
	}
	__porf_private_set((long long)__l, __porf_private_get((long long)__l) + 1);
	return 0;
}
static inline int pthread_rwlock_wrlock(pthread_rwlock_t *__l)
{
	int __v = 0;
	if (!atomic_compare_exchange_strong_explicit(&__l->__state, &__v, -1,
						     2 /* acquire */, 0 /* relaxed */)) {
		__porf_check(__v != __PORF_RW_DESTROYED, "pthread_rwlock_wrlock of a destroyed read-write lock");
		__porf_await(0);
	}
	__porf_private_set((long long)__l, -1);
	return 0;
}
static inline int pthread_rwlock_tryrdlock(pthread_rwlock_t *__l)
{
	int __v = 0;
	while (!atomic_compare_exchange_strong_explicit(&__l->__state, &__v, __v + 1,
							 2 /* acquire */, 0 /* relaxed */)) {
		__porf_check(__v != __PORF_RW_DESTROYED, "pthread_rwlock_tryrdlock of a destroyed read-write lock");
		if (__v < 0)
			return 16; /* EBUSY */
	}
	__porf_private_set((long long)__l, __porf_private_get((long long)__l) + 1);
	return 0;
}
static inline int pthread_rwlock_trywrlock(pthread_rwlock_t *__l)
{
	int __v = 0;
	if (atomic_compare_exchange_strong_explicit(&__l->__state, &__v, -1,
						    2 /* acquire */, 0 /* relaxed */)) {
		__porf_private_set((long long)__l, -1);
		return 0;
	}
	__porf_check(__v != __PORF_RW_DESTROYED, "pthread_rwlock_trywrlock of a destroyed read-write lock");
	return 16; /* EBUSY */
}
static inline int pthread_rwlock_unlock(pthread_rwlock_t *__l)
{
	long long __h = __porf_private_get((long long)__l);
	__porf_check(__h != 0, "invalid unlock: the thread does not hold the read-write lock");
	if (__h == 0)
		return 1; /* EPERM */
	if (__h < 0) {
		__porf_private_set((long long)__l, 0);
		atomic_fetch_add_explicit(&__l->__state, 1, 3 /* release */);
	} else {
		__porf_private_set((long long)__l, __h - 1);
		atomic_fetch_sub_explicit(&__l->__state, 1, 3 /* release */);
	}
	return 0;
}
/* The process-shared attribute is kept and read back; one program is one process. */
static inline int pthread_rwlockattr_init(pthread_rwlockattr_t *__a)
{
	__a->__pshared = 0;
	return 0;
}
static inline int pthread_rwlockattr_setpshared(pthread_rwlockattr_t *__a, int __s)
{
	if (__s != 0 && __s != 1)
		return 22; /* EINVAL */
	__a->__pshared = __s;
	return 0;
}
static inline int pthread_rwlockattr_getpshared(const pthread_rwlockattr_t *__a, int *__s)
{
	*__s = __a->__pshared;
	return 0;
}
static inline int pthread_rwlockattr_destroy(pthread_rwlockattr_t *__a) { return 0; }

/* pthread_once: a mutex and a flag; the first caller to take the mutex runs the
 * routine, every caller returns after it finished (and happens after it). */
typedef struct { pthread_mutex_t __m; int __done; } pthread_once_t;
#define PTHREAD_ONCE_INIT { { 0, 0 }, 0 }
static inline int pthread_once(pthread_once_t *__o, void (*__f)(void))
{
	pthread_mutex_lock(&__o->__m);
	if (!__o->__done) {
		__f();
		__o->__done = 1;
	}
	pthread_mutex_unlock(&__o->__m);
	return 0;
}

/* Thread-specific data: a key is the address of the pthread_key_t object it was
 * created in (unique while the object lives; no shared counter, so creating a key
 * adds no event but the store of the key). A thread's values live in its private
 * store (under -1 - key), so they are per thread and start out NULL. Key destructors
 * are not supported (a non-NULL one is an "unsupported" error when pthread_key_create
 * runs); pthread_key_delete does not reset values, and a key re-created in the same
 * object after pthread_key_delete sees the values set before. */
typedef unsigned long long pthread_key_t;
static inline int pthread_key_create(pthread_key_t *__k, void (*__destructor)(void *))
{
	if (__destructor)
		__porf_unsupported("pthread_key_create with a destructor: porf does not run key destructors");
	*__k = (unsigned long long)__k;
	return 0;
}
static inline int pthread_key_delete(pthread_key_t __k) { return 0; }
static inline void *pthread_getspecific(pthread_key_t __k)
{
	return (void *)__porf_private_get(-1 - (long long)__k);
}
static inline int pthread_setspecific(pthread_key_t __k, const void *__v)
{
	__porf_private_set(-1 - (long long)__k, (long long)__v);
	return 0;
}

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
 * __porf_awaits announces the wait's load and the value it needs (no event): the
 * explorer then holds the thread back until that value is the barrier's latest write
 * (barrier-aware exploration, porf-explore's bam.rs; --disable-bam), which leaves the
 * executions as they are and skips most of the blocked ones.
 * Waiting on a barrier that was never initialised or was destroyed is a memory error.
 * Initialising a barrier that is initialised and not destroyed is undefined (POSIX;
 * GenMC's "Invalid barrier_init() operation") and a memory error here, for barriers in
 * the global area only (globals, static locals): init first reads __count (a
 * non-atomic read, so an init concurrent with another init or a destroy is a race),
 * which is 0 there before the first init. A barrier in a malloc'ed block or in a local
 * has no value to read before its first init (an uninitialised read, or a new object
 * in each run of its block), so re-initialising those is not diagnosed. init after
 * destroy is fine (__count is -1). */
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
	if (__porf_is_global(__b))
		__porf_check(__b->__count <= 0,
			     "invalid pthread_barrier_init: the barrier is already initialised (and not destroyed)");
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
	int __last = (__k / __n + 1) * __n;
	__porf_awaits(__last);
	__VERIFIER_assume(atomic_load_explicit(&__b->__arrived, 2 /* acquire */) == __last);
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

/* porf bundled <threads.h> (C11 7.26): threads, mutexes, condition variables, once
 * and thread-specific storage, as thin wrappers over porf's <pthread.h>. Timed
 * operations (mtx_timedlock, cnd_timedwait, thrd_sleep) are not supported. */
#ifndef __PORF_THREADS_H
#define __PORF_THREADS_H
#include <pthread.h>

typedef pthread_t thrd_t;
typedef int (*thrd_start_t)(void *);
typedef pthread_mutex_t mtx_t;
typedef pthread_cond_t cnd_t;
typedef pthread_once_t once_flag;
typedef pthread_key_t tss_t;
typedef void (*tss_dtor_t)(void *);
#define ONCE_FLAG_INIT PTHREAD_ONCE_INIT
#define TSS_DTOR_ITERATIONS 4
#define thread_local _Thread_local

enum { thrd_success = 0, thrd_busy = 1, thrd_error = 2, thrd_nomem = 3, thrd_timedout = 4 };
enum { mtx_plain = 0, mtx_recursive = 1, mtx_timed = 2 };

static inline int thrd_create(thrd_t *__thr, thrd_start_t __func, void *__arg)
{
	return pthread_create(__thr, NULL, (void *(*)(void *))__func, __arg) == 0 ? thrd_success
										    : thrd_error;
}
static inline _Noreturn void thrd_exit(int __res) { pthread_exit((void *)(long)__res); }
static inline int thrd_join(thrd_t __thr, int *__res)
{
	void *__ret;
	if (pthread_join(__thr, &__ret) != 0)
		return thrd_error;
	if (__res)
		*__res = (int)(long)__ret;
	return thrd_success;
}
static inline thrd_t thrd_current(void) { return pthread_self(); }
static inline int thrd_equal(thrd_t __a, thrd_t __b) { return pthread_equal(__a, __b); }
static inline void thrd_yield(void) {}
static inline int thrd_detach(thrd_t __thr) { return pthread_detach(__thr) == 0 ? thrd_success : thrd_error; }

static inline int mtx_init(mtx_t *__m, int __type)
{
	if (__type & mtx_timed)
		__porf_unsupported("mtx_init with mtx_timed: timed mutexes are not supported");
	pthread_mutexattr_t __a;
	pthread_mutexattr_init(&__a);
	pthread_mutexattr_settype(&__a, (__type & mtx_recursive) ? PTHREAD_MUTEX_RECURSIVE
								 : PTHREAD_MUTEX_NORMAL);
	return pthread_mutex_init(__m, &__a) == 0 ? thrd_success : thrd_error;
}
static inline void mtx_destroy(mtx_t *__m) { pthread_mutex_destroy(__m); }
static inline int mtx_lock(mtx_t *__m)
{
	return pthread_mutex_lock(__m) == 0 ? thrd_success : thrd_error;
}
static inline int mtx_trylock(mtx_t *__m)
{
	int __r = pthread_mutex_trylock(__m);
	return __r == 0 ? thrd_success : __r == 16 /* EBUSY */ ? thrd_busy : thrd_error;
}
static inline int mtx_unlock(mtx_t *__m)
{
	return pthread_mutex_unlock(__m) == 0 ? thrd_success : thrd_error;
}

static inline int cnd_init(cnd_t *__c)
{
	return pthread_cond_init(__c, NULL) == 0 ? thrd_success : thrd_error;
}
static inline void cnd_destroy(cnd_t *__c) { pthread_cond_destroy(__c); }
static inline int cnd_signal(cnd_t *__c)
{
	return pthread_cond_signal(__c) == 0 ? thrd_success : thrd_error;
}
static inline int cnd_broadcast(cnd_t *__c)
{
	return pthread_cond_broadcast(__c) == 0 ? thrd_success : thrd_error;
}
static inline int cnd_wait(cnd_t *__c, mtx_t *__m)
{
	return pthread_cond_wait(__c, __m) == 0 ? thrd_success : thrd_error;
}

static inline void call_once(once_flag *__o, void (*__f)(void)) { pthread_once(__o, __f); }

static inline int tss_create(tss_t *__k, tss_dtor_t __d)
{
	return pthread_key_create(__k, __d) == 0 ? thrd_success : thrd_error;
}
static inline void tss_delete(tss_t __k) { pthread_key_delete(__k); }
static inline void *tss_get(tss_t __k) { return pthread_getspecific(__k); }
static inline int tss_set(tss_t __k, void *__v)
{
	return pthread_setspecific(__k, __v) == 0 ? thrd_success : thrd_error;
}
#endif

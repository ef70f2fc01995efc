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
#endif

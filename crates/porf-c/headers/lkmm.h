/* porf bundled <lkmm.h>: the Linux-kernel primitives GenMC's <lkmm.h> offers, as C11
 * atomics. porf has no model of the Linux-kernel memory model (LKMM): a program that
 * includes this header runs under the model --model names (rc11 by default), which is
 * also what GenMC 0.11 does with its own header outside -lkmm. The mapping:
 *
 * - READ_ONCE(x) / WRITE_ONCE(x, v): relaxed load / store of the plain object x.
 * - smp_load_acquire(p) / smp_store_release(p, v): acquire load / release store.
 * - rcu_dereference(p): READ_ONCE(p), as in GenMC's header (C11 keeps no address
 *   dependency, so a plain access through the pointer read is not ordered after the
 *   publishing store). rcu_assign_pointer(p, v): smp_store_release(&p, v).
 * - smp_mb(), smp_mb__before_atomic(), smp_mb__after_atomic(),
 *   smp_mb__after_spinlock(), smp_mb__after_unlock_lock(): seq_cst fence.
 *   smp_rmb(): acquire fence. smp_wmb(): release fence. smp_store_mb(x, v): relaxed
 *   store, then seq_cst fence. barrier(): nothing (porf runs the source as written;
 *   there is no compiler reordering to stop).
 *   These are C11 approximations, not the LKMM: a C11 fence orders only through
 *   synchronisation (rf), where an LKMM fence orders the accesses around it, and C11
 *   keeps no dependencies. Message passing with smp_wmb/smp_rmb and store buffering
 *   with smp_mb are forbidden in both; load buffering with plain dependencies is
 *   forbidden by the LKMM and by rc11 (which forbids every po ∪ rf cycle).
 * - xchg, cmpxchg, atomic_*_return, atomic_fetch_* without suffix (fully ordered in
 *   the LKMM): seq_cst fence, relaxed RMW, seq_cst fence. _relaxed/_acquire/_release
 *   suffixes: the RMW with that order. atomic_add/sub/inc/dec (no return value):
 *   relaxed RMW.
 * - atomic_t is struct { int counter; }; spinlock_t is pthread_mutex_t, spin_lock /
 *   spin_unlock / spin_trylock its lock, unlock and trylock.
 * - RCU (rcu_read_lock, rcu_read_unlock, synchronize_rcu) and spin_is_locked: not
 *   supported; an execution reaching one is an "unsupported" error (exit code 3).
 *
 * An lkmm.h in a directory given with -I is used instead of this one (Dat3M's, whose
 * __LKMM_* intrinsics porf refuses where an execution reaches them).
 */
#ifndef __PORF_LKMM_H
#define __PORF_LKMM_H
/* __PORF_USER_INCLUDES: the run has -I directories (without any, gcc refuses
 * __has_include_next under -nostdinc). */
#ifdef __PORF_USER_INCLUDES
#if __has_include_next(<lkmm.h>)
#define __PORF_LKMM_USER 1
#endif
#endif
#ifdef __PORF_LKMM_USER
#include_next <lkmm.h>
#else
#include <pthread.h>
#include <stdint.h>
#include <stdatomic.h>

void __porf_unsupported(const char *__msg);

#define READ_ONCE(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define smp_load_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define rcu_dereference(p) READ_ONCE(p)
#define rcu_assign_pointer(p, v) smp_store_release(&(p), (v))

#define barrier() do { } while (0)
#define smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_mb__before_atomic() smp_mb()
#define smp_mb__after_atomic() smp_mb()
#define smp_mb__after_spinlock() smp_mb()
#define smp_mb__after_unlock_lock() smp_mb()
#define smp_store_mb(x, v) do { WRITE_ONCE(x, v); smp_mb(); } while (0)

/* A fully ordered RMW: the relaxed RMW `e` between two seq_cst fences. */
#define __porf_lkmm_full(e) ({ smp_mb(); __typeof__(e) __r = (e); smp_mb(); __r; })

#define xchg_relaxed(p, v) __atomic_exchange_n((p), (v), __ATOMIC_RELAXED)
#define xchg_acquire(p, v) __atomic_exchange_n((p), (v), __ATOMIC_ACQUIRE)
#define xchg_release(p, v) __atomic_exchange_n((p), (v), __ATOMIC_RELEASE)
#define xchg(p, v) __porf_lkmm_full(xchg_relaxed(p, v))

/* cmpxchg returns the value it read (the old value whether or not it wrote). */
#define __porf_cmpxchg(p, o, n, s, f)                                          \
	({                                                                     \
		__typeof__(*(p)) __o = (o);                                    \
		__atomic_compare_exchange_n((p), &__o, (n), 0, (s), (f));      \
		__o;                                                           \
	})
#define cmpxchg_relaxed(p, o, n) __porf_cmpxchg(p, o, n, __ATOMIC_RELAXED, __ATOMIC_RELAXED)
#define cmpxchg_acquire(p, o, n) __porf_cmpxchg(p, o, n, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)
#define cmpxchg_release(p, o, n) __porf_cmpxchg(p, o, n, __ATOMIC_RELEASE, __ATOMIC_RELAXED)
#define cmpxchg(p, o, n) __porf_lkmm_full(cmpxchg_relaxed(p, o, n))

typedef struct {
	int counter;
} atomic_t;
#define ATOMIC_INIT(i) { (i) }
#define atomic_read(v) READ_ONCE((v)->counter)
#define atomic_set(v, i) WRITE_ONCE((v)->counter, (i))
#define atomic_read_acquire(v) smp_load_acquire(&(v)->counter)
#define atomic_set_release(v, i) smp_store_release(&(v)->counter, (i))

#define atomic_add(i, v) ((void)__atomic_fetch_add(&(v)->counter, (i), __ATOMIC_RELAXED))
#define atomic_sub(i, v) ((void)__atomic_fetch_sub(&(v)->counter, (i), __ATOMIC_RELAXED))
#define atomic_inc(v) atomic_add(1, v)
#define atomic_dec(v) atomic_sub(1, v)

#define atomic_add_return_relaxed(i, v) __atomic_add_fetch(&(v)->counter, (i), __ATOMIC_RELAXED)
#define atomic_add_return_acquire(i, v) __atomic_add_fetch(&(v)->counter, (i), __ATOMIC_ACQUIRE)
#define atomic_add_return_release(i, v) __atomic_add_fetch(&(v)->counter, (i), __ATOMIC_RELEASE)
#define atomic_add_return(i, v) __porf_lkmm_full(atomic_add_return_relaxed(i, v))
#define atomic_sub_return_relaxed(i, v) __atomic_sub_fetch(&(v)->counter, (i), __ATOMIC_RELAXED)
#define atomic_sub_return_acquire(i, v) __atomic_sub_fetch(&(v)->counter, (i), __ATOMIC_ACQUIRE)
#define atomic_sub_return_release(i, v) __atomic_sub_fetch(&(v)->counter, (i), __ATOMIC_RELEASE)
#define atomic_sub_return(i, v) __porf_lkmm_full(atomic_sub_return_relaxed(i, v))
#define atomic_fetch_add_relaxed(i, v) __atomic_fetch_add(&(v)->counter, (i), __ATOMIC_RELAXED)
#define atomic_fetch_add_acquire(i, v) __atomic_fetch_add(&(v)->counter, (i), __ATOMIC_ACQUIRE)
#define atomic_fetch_add_release(i, v) __atomic_fetch_add(&(v)->counter, (i), __ATOMIC_RELEASE)
#define atomic_fetch_add(i, v) __porf_lkmm_full(atomic_fetch_add_relaxed(i, v))
#define atomic_fetch_sub_relaxed(i, v) __atomic_fetch_sub(&(v)->counter, (i), __ATOMIC_RELAXED)
#define atomic_fetch_sub_acquire(i, v) __atomic_fetch_sub(&(v)->counter, (i), __ATOMIC_ACQUIRE)
#define atomic_fetch_sub_release(i, v) __atomic_fetch_sub(&(v)->counter, (i), __ATOMIC_RELEASE)
#define atomic_fetch_sub(i, v) __porf_lkmm_full(atomic_fetch_sub_relaxed(i, v))

#define atomic_inc_return(v) atomic_add_return(1, v)
#define atomic_inc_return_relaxed(v) atomic_add_return_relaxed(1, v)
#define atomic_inc_return_acquire(v) atomic_add_return_acquire(1, v)
#define atomic_inc_return_release(v) atomic_add_return_release(1, v)
#define atomic_dec_return(v) atomic_sub_return(1, v)
#define atomic_dec_return_relaxed(v) atomic_sub_return_relaxed(1, v)
#define atomic_dec_return_acquire(v) atomic_sub_return_acquire(1, v)
#define atomic_dec_return_release(v) atomic_sub_return_release(1, v)
#define atomic_fetch_inc(v) atomic_fetch_add(1, v)
#define atomic_fetch_inc_relaxed(v) atomic_fetch_add_relaxed(1, v)
#define atomic_fetch_inc_acquire(v) atomic_fetch_add_acquire(1, v)
#define atomic_fetch_inc_release(v) atomic_fetch_add_release(1, v)
#define atomic_fetch_dec(v) atomic_fetch_sub(1, v)
#define atomic_fetch_dec_relaxed(v) atomic_fetch_sub_relaxed(1, v)
#define atomic_fetch_dec_acquire(v) atomic_fetch_sub_acquire(1, v)
#define atomic_fetch_dec_release(v) atomic_fetch_sub_release(1, v)

#define atomic_xchg(v, i) xchg(&(v)->counter, (i))
#define atomic_xchg_relaxed(v, i) xchg_relaxed(&(v)->counter, (i))
#define atomic_xchg_acquire(v, i) xchg_acquire(&(v)->counter, (i))
#define atomic_xchg_release(v, i) xchg_release(&(v)->counter, (i))
#define atomic_cmpxchg(v, o, n) cmpxchg(&(v)->counter, (o), (n))
#define atomic_cmpxchg_relaxed(v, o, n) cmpxchg_relaxed(&(v)->counter, (o), (n))
#define atomic_cmpxchg_acquire(v, o, n) cmpxchg_acquire(&(v)->counter, (o), (n))
#define atomic_cmpxchg_release(v, o, n) cmpxchg_release(&(v)->counter, (o), (n))

#define atomic_sub_and_test(i, v) (atomic_sub_return(i, v) == 0)
#define atomic_dec_and_test(v) (atomic_dec_return(v) == 0)
#define atomic_inc_and_test(v) (atomic_inc_return(v) == 0)
#define atomic_add_negative(i, v) (atomic_add_return(i, v) < 0)

typedef pthread_mutex_t spinlock_t;
#define spin_lock(l) pthread_mutex_lock(l)
#define spin_unlock(l) pthread_mutex_unlock(l)
#define spin_trylock(l) (!pthread_mutex_trylock(l))
#define spin_is_locked(l)                                                           \
	(__porf_unsupported("`spin_is_locked` (lkmm.h) is not supported: it reads the " \
			    "state of a pthread mutex, which porf does not expose"),      \
	 0)

#define __PORF_RCU_UNSUPPORTED(n)                                                  \
	__porf_unsupported("`" n "` (lkmm.h's RCU) is not supported: porf has no model " \
			   "of RCU grace periods")
#define rcu_read_lock() __PORF_RCU_UNSUPPORTED("rcu_read_lock")
#define rcu_read_unlock() __PORF_RCU_UNSUPPORTED("rcu_read_unlock")
#define synchronize_rcu() __PORF_RCU_UNSUPPORTED("synchronize_rcu")
#define synchronize_rcu_expedited() __PORF_RCU_UNSUPPORTED("synchronize_rcu_expedited")
#endif
#endif

/* porf bundled <genmc.h>: the verifier interface of GenMC programs (GenMC 0.11's
 * include/genmc.h), with each facility's meaning in porf.
 *
 * - __VERIFIER_assume(c): blocks the execution when c is false.
 * - __VERIFIER_spawn(f, arg) / __VERIFIER_join(t): pthread_create / pthread_join,
 *   except that, as in GenMC, threads spawned one after the other by
 *   __VERIFIER_spawn with the same f and arg may be found symmetric (README
 *   "Symmetry reduction"; pthread_create stores the id in memory in between).
 *   __VERIFIER_spawn_symmetric(f, arg, t) spawns like __VERIFIER_spawn and declares
 *   the new thread interchangeable with thread t: when t was spawned by the same
 *   thread with the same f and arg, symmetry reduction explores executions that
 *   differ by swapping the two threads once (README "Symmetry reduction";
 *   --disable-sr explores them all). The declaration is the program's promise: the
 *   rest of the program must not tell the two threads apart.
 * - __VERIFIER_helped_CAS, __VERIFIER_helping_CAS, __VERIFIER_speculative_read,
 *   __VERIFIER_confirming_read/CAS, __VERIFIER_local_write: annotations that let
 *   GenMC prune executions (Helper, SAVer); porf runs the annotated code as written
 *   and explores every execution.
 * - __VERIFIER_final_write(s), __VERIFIER_final_CAS(c): each write the statement
 *   (or the CAS, if it succeeds) performs is final: every other write to its location
 *   must happen before it, else the execution has an "annotation error" (an assertion
 *   failure, exit code 42). GenMC checks this with -helper only, and only when a
 *   store meets exactly one other store of the location; porf always checks it, for
 *   every pair (README "Where porf differs from GenMC 0.11").
 * - __VERIFIER_optional(x): each time the thread reaches the block, it either skips it
 *   or runs x and then blocks (as GenMC's `if (__VERIFIER_opt_begin()) { x;
 *   __VERIFIER_assume(0); }`). So complete executions are those of the program
 *   without the block, and an error x can reach is found. GenMC enters at most one
 *   block per execution (by a revisit of its own); porf explores every choice, which
 *   gives the same complete executions and verdicts when x writes nothing another
 *   thread reads (GenMC's requirement), and more blocked executions.
 * - __VERIFIER_hp_* (hazard pointers), as in GenMC 0.11: __VERIFIER_hp_alloc() mallocs
 *   a hazard pointer, __VERIFIER_hp_free(hp) frees it, __VERIFIER_hp_clear(hp) is a
 *   release store of NULL into it, __VERIFIER_hp_protect(hp, p) an acquire load of the
 *   pointer at p, then the protection of the value loaded by hp.
 *   __VERIFIER_hp_retire(p) is a free of p's block, except that an access protected
 *   by a hazard pointer (the thread's latest protection of a pointer into the block
 *   names a hazard pointer the thread has not protected anything else with since) is
 *   not an access to freed memory because of the retire (porf-models' lifetime.rs).
 *   A retire twice, or a retire and a free, of one block is a double free.
 * - Persistency and method annotations: not supported (an execution reaching a call
 *   is an "unsupported" error, exit code 3).
 */
#ifndef __PORF_GENMC_H
#define __PORF_GENMC_H
#include <stdbool.h>
#include <stdlib.h>
#include <pthread.h>
void __VERIFIER_assume(bool cond);
int __VERIFIER_nondet_int(void);

typedef pthread_t __VERIFIER_thread_t;

void __porf_spawn(pthread_t *__t, const pthread_attr_t *__attr,
		  void *(*__start_routine)(void *), void *__arg);

static inline __VERIFIER_thread_t __VERIFIER_spawn(void *(*__start_routine)(void *), void *__arg)
{
	pthread_t __t;
	__porf_spawn(&__t, NULL, __start_routine, __arg);
	return __t;
}

void __porf_spawn_symmetric(pthread_t *__t, __VERIFIER_thread_t __th,
			    void *(*__start_routine)(void *), void *__arg);

static inline __VERIFIER_thread_t __VERIFIER_spawn_symmetric(void *(*__start_routine)(void *),
							     void *__arg,
							     __VERIFIER_thread_t __th)
{
	pthread_t __t;
	__porf_spawn_symmetric(&__t, __th, __start_routine, __arg);
	return __t;
}

static inline void *__VERIFIER_join(__VERIFIER_thread_t __th)
{
	void *__ret;
	pthread_join(__th, &__ret);
	return __ret;
}

static inline void __VERIFIER_join_symmetric(__VERIFIER_thread_t __th)
{
	__VERIFIER_join(__th);
}

#define __VERIFIER_local_write(s) do { s; } while (0)
void __porf_final_begin(void);
void __porf_final_end(void);
#define __VERIFIER_final_write(s) do { __porf_final_begin(); s; __porf_final_end(); } while (0)
#define __VERIFIER_helped_CAS(c) do { c; } while (0)
#define __VERIFIER_helping_CAS(c) do { c; } while (0)
#define __VERIFIER_speculative_read(c) (c)
#define __VERIFIER_confirming_read(c) (c)
#define __VERIFIER_confirming_CAS(c) (c)
#define __VERIFIER_final_CAS(c)                                                     \
	({                                                                          \
		__porf_final_begin();                                               \
		__typeof__(c) __porf_r = (c);                                       \
		__porf_final_end();                                                 \
		__porf_r;                                                           \
	})
/* GenMC's optional block: skipped, or entered and then the thread blocks (see above). */
#define __VERIFIER_optional(x)                                                      \
	do {                                                                        \
		if (__VERIFIER_nondet_bool()) {                                     \
			x;                                                          \
			__VERIFIER_assume(0);                                       \
		}                                                                   \
	} while (0)

typedef struct {
	void *__dummy;
} __VERIFIER_hp_t;
void __VERIFIER_hazptr_protect(__VERIFIER_hp_t *__hp, void *__p);
void __VERIFIER_hazptr_retire(void *__p);
#define __VERIFIER_hp_alloc() ((__VERIFIER_hp_t *)malloc(sizeof(__VERIFIER_hp_t)))
#define __VERIFIER_hp_free(hp) free(hp)
#define __VERIFIER_hp_clear(hp) __atomic_store_n(&(hp)->__dummy, (void *)0, __ATOMIC_RELEASE)
#define __VERIFIER_hp_protect(hp, p)                                                \
	({                                                                          \
		void *__porf_p = __atomic_load_n((void **)(p), __ATOMIC_ACQUIRE);   \
		__VERIFIER_hazptr_protect((hp), __porf_p);                          \
		__porf_p;                                                           \
	})
#define __VERIFIER_hp_retire(p) __VERIFIER_hazptr_retire(p)
#endif

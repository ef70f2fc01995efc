/* porf bundled <genmc.h>: the verifier interface of GenMC programs (GenMC 0.11's
 * include/genmc.h), with each facility's meaning in porf.
 *
 * - __VERIFIER_assume(c): blocks the execution when c is false.
 * - __VERIFIER_spawn(f, arg) / __VERIFIER_join(t): pthread_create / pthread_join.
 *   __VERIFIER_spawn_symmetric(f, arg, t) spawns like __VERIFIER_spawn: the symmetry
 *   it declares only lets GenMC skip executions that differ by swapping the threads
 *   (symmetry reduction); porf explores them all, so it may count more.
 * - __VERIFIER_helped_CAS, __VERIFIER_helping_CAS, __VERIFIER_speculative_read,
 *   __VERIFIER_confirming_read/CAS, __VERIFIER_local_write: annotations that let
 *   GenMC prune executions (Helper, SAVer); porf runs the annotated code as written
 *   and explores every execution.
 * - __VERIFIER_final_write, __VERIFIER_final_CAS: with -helper, GenMC reports an
 *   "Annotation error" when a final write's location has another store not
 *   happens-before it (checked as each store is added); porf does not check that, so
 *   an execution reaching one is an "unsupported" error (exit code 3) rather than an
 *   annotation ignored in silence. Without the annotation the store is checked as
 *   any other.
 * - __VERIFIER_optional(x): each time the thread reaches the block, it either skips it
 *   or runs x and then blocks (as GenMC's `if (__VERIFIER_opt_begin()) { x;
 *   __VERIFIER_assume(0); }`). So complete executions are those of the program
 *   without the block, and an error x can reach is found. GenMC enters at most one
 *   block per execution (by a revisit of its own); porf explores every choice, which
 *   gives the same complete executions and verdicts when x writes nothing another
 *   thread reads (GenMC's requirement), and more blocked executions.
 * - __VERIFIER_hp_* (hazard pointers), persistency and method annotations: not
 *   supported (an execution reaching a call is an "unsupported" error, exit code 3).
 */
#ifndef __PORF_GENMC_H
#define __PORF_GENMC_H
#include <stdbool.h>
#include <pthread.h>
void __VERIFIER_assume(bool cond);
int __VERIFIER_nondet_int(void);

typedef pthread_t __VERIFIER_thread_t;

static inline __VERIFIER_thread_t __VERIFIER_spawn(void *(*__start_routine)(void *), void *__arg)
{
	pthread_t __t;
	pthread_create(&__t, NULL, __start_routine, __arg);
	return __t;
}

static inline __VERIFIER_thread_t __VERIFIER_spawn_symmetric(void *(*__start_routine)(void *),
							     void *__arg,
							     __VERIFIER_thread_t __th)
{
	return __VERIFIER_spawn(__start_routine, __arg);
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
void __porf_unsupported(const char *__msg);
#define __PORF_FINAL_UNSUPPORTED(n)                                                        \
	__porf_unsupported("`" n "` (GenMC's final-write annotation) is not supported: with "  \
			   "-helper GenMC checks that no other store of the location is unordered " \
			   "with a final one, porf does not; remove the annotation to check the "   \
			   "store as any other")
#define __VERIFIER_final_write(s) do { __PORF_FINAL_UNSUPPORTED("__VERIFIER_final_write"); s; } while (0)
#define __VERIFIER_helped_CAS(c) do { c; } while (0)
#define __VERIFIER_helping_CAS(c) do { c; } while (0)
#define __VERIFIER_speculative_read(c) (c)
#define __VERIFIER_confirming_read(c) (c)
#define __VERIFIER_confirming_CAS(c) (c)
#define __VERIFIER_final_CAS(c) (__PORF_FINAL_UNSUPPORTED("__VERIFIER_final_CAS"), (c))
/* GenMC's optional block: skipped, or entered and then the thread blocks (see above). */
#define __VERIFIER_optional(x)                                                      \
	do {                                                                        \
		if (__VERIFIER_nondet_bool()) {                                     \
			x;                                                          \
			__VERIFIER_assume(0);                                       \
		}                                                                   \
	} while (0)

typedef void *__VERIFIER_hp_t;
#endif

/* porf bundled <time.h>: deterministic stand-ins. porf explores every interleaving
 * whatever the durations, so time does not pass: every clock reads 0 (time() is the
 * epoch, clock() and clock_gettime() of any clock 0 seconds and 0 nanoseconds), and
 * nanosleep and thrd_sleep-like waits return at once (0, as a sleep that was not
 * interrupted). A loop waiting for a clock to advance waits for good (spin-assume
 * blocks it). Broken-down time (localtime, strftime, ...) is not provided. */
#ifndef __PORF_TIME_H
#define __PORF_TIME_H
#include <stddef.h>
#ifndef NULL
#define NULL ((void *)0)
#endif
typedef long time_t;
typedef long clock_t;
typedef int clockid_t;
struct timespec {
	time_t tv_sec;
	long tv_nsec;
};
#define CLOCKS_PER_SEC 1000000L
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID 3
#define TIME_UTC 1

static inline time_t time(time_t *__t)
{
	if (__t)
		*__t = 0;
	return 0;
}
static inline clock_t clock(void) { return 0; }
static inline double difftime(time_t __a, time_t __b) { return (double)(__a - __b); }
static inline int clock_gettime(clockid_t __c, struct timespec *__ts)
{
	__ts->tv_sec = 0;
	__ts->tv_nsec = 0;
	return 0;
}
static inline int clock_getres(clockid_t __c, struct timespec *__ts)
{
	if (__ts) {
		__ts->tv_sec = 0;
		__ts->tv_nsec = 1;
	}
	return 0;
}
static inline int timespec_get(struct timespec *__ts, int __base)
{
	if (__base != TIME_UTC)
		return 0;
	__ts->tv_sec = 0;
	__ts->tv_nsec = 0;
	return __base;
}
static inline int nanosleep(const struct timespec *__req, struct timespec *__rem)
{
	return 0;
}
#endif

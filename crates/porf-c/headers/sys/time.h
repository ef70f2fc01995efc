/* porf bundled <sys/time.h> (POSIX): struct timeval and gettimeofday, a deterministic
 * stand-in like <time.h>'s clocks: time does not pass in porf (it explores every
 * interleaving whatever the durations), so gettimeofday reads the epoch, 0 seconds and
 * 0 microseconds, and returns 0. The time zone argument is obsolete (POSIX): if it
 * is not null, its fields are set to 0. */
#ifndef __PORF_SYS_TIME_H
#define __PORF_SYS_TIME_H
#include <time.h>
typedef long suseconds_t;
struct timeval {
	time_t tv_sec;
	suseconds_t tv_usec;
};
struct timezone {
	int tz_minuteswest;
	int tz_dsttime;
};
static inline int gettimeofday(struct timeval *__tv, void *__tz)
{
	if (__tv) {
		__tv->tv_sec = 0;
		__tv->tv_usec = 0;
	}
	if (__tz) {
		((struct timezone *)__tz)->tz_minuteswest = 0;
		((struct timezone *)__tz)->tz_dsttime = 0;
	}
	return 0;
}
#endif

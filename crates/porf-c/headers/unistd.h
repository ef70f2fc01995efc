/* porf bundled <unistd.h>: the few POSIX calls concurrent test programs make.
 * Sleeping does not change which executions exist (porf explores every
 * interleaving), so usleep and sleep return at once; they create no event. */
#ifndef __PORF_UNISTD_H
#define __PORF_UNISTD_H
#include <stddef.h>
typedef unsigned int useconds_t;
typedef long ssize_t;
typedef int pid_t;
static inline int usleep(useconds_t __usec) { return 0; }
static inline unsigned int sleep(unsigned int __seconds) { return 0; }
#endif

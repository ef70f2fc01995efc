/* porf bundled <sys/types.h> (x86-64 Linux sizes). The types <unistd.h> also
 * declares are repeated here identically, which C11 allows (6.7p3). */
#ifndef __PORF_SYS_TYPES_H
#define __PORF_SYS_TYPES_H
#include <stddef.h>
typedef long ssize_t;
typedef int pid_t;
typedef unsigned int useconds_t;
typedef long off_t;
typedef unsigned int uid_t;
typedef unsigned int gid_t;
typedef unsigned int mode_t;
typedef unsigned long dev_t;
typedef unsigned long ino_t;
typedef unsigned long nlink_t;
typedef long blksize_t;
typedef long blkcnt_t;
typedef long time_t;
typedef long clock_t;
typedef int clockid_t;
typedef long suseconds_t;
typedef unsigned char u_char;
typedef unsigned short u_short;
typedef unsigned int u_int;
typedef unsigned long u_long;
#endif

/* porf bundled <errno.h>: errno is a thread-local int (C11 7.5p2), and the error
 * numbers of Linux on x86-64. */
#ifndef __PORF_ERRNO_H
#define __PORF_ERRNO_H
static _Thread_local int __porf_errno;
#define errno __porf_errno
#define EPERM 1
#define ENOENT 2
#define EINTR 4
#define EIO 5
#define EAGAIN 11
#define ENOMEM 12
#define EBUSY 16
#define EEXIST 17
#define EINVAL 22
#define ERANGE 34
#define EDEADLK 35
#define ETIMEDOUT 110
#endif

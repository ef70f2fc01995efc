/* porf bundled <stddef.h> (x86-64 LP64). */
#ifndef __PORF_STDDEF_H
#define __PORF_STDDEF_H
typedef unsigned long size_t;
typedef long ptrdiff_t;
typedef int wchar_t;
#define NULL ((void *)0)
#define offsetof(type, member) __builtin_offsetof(type, member)
#endif

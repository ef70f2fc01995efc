/* porf bundled <stdarg.h> (C11 7.16): variadic functions. The interpreter keeps the
 * arguments a call passes beyond a variadic function's parameters (after the default
 * argument promotions) with the callee's frame; a va_list names that frame and the
 * next argument, so va_arg reads them in order, a va_list passed to another function
 * reads the same arguments, and va_copy copies the position. va_arg beyond the
 * arguments passed, or with a va_list whose function has returned, is an error
 * (undefined behaviour in C); the argument is taken as the type va_arg names (C
 * requires the promoted type it was passed as, which porf does not check). va_end
 * does nothing. These are GCC's builtins, which porf's front end implements. */
#ifndef __PORF_STDARG_H
#define __PORF_STDARG_H
typedef __builtin_va_list va_list;
typedef __builtin_va_list __gnuc_va_list;
#define va_start(ap, last) __builtin_va_start(ap, last)
#define va_arg(ap, type) __builtin_va_arg(ap, type)
#define va_end(ap) __builtin_va_end(ap)
#define va_copy(dest, src) __builtin_va_copy(dest, src)
#define __va_copy(dest, src) __builtin_va_copy(dest, src)
#endif

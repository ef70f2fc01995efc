/* porf bundled <stdio.h>. printf, fprintf, puts and putchar are builtins that
 * evaluate their arguments and print nothing; they return 0. */
#ifndef __PORF_STDIO_H
#define __PORF_STDIO_H
#include <stddef.h>
typedef struct __porf_FILE FILE;
#define stdin ((FILE *)1)
#define stdout ((FILE *)2)
#define stderr ((FILE *)3)
#define EOF (-1)
int printf(const char *format, ...);
int fprintf(FILE *stream, const char *format, ...);
int puts(const char *s);
int putchar(int c);
int fflush(FILE *stream);
int sprintf(char *str, const char *format, ...);
int snprintf(char *str, size_t size, const char *format, ...);
#endif

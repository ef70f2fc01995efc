/* porf bundled <stdint.h> (x86-64 LP64). */
#ifndef __PORF_STDINT_H
#define __PORF_STDINT_H
/* Under ILP32 (`--data-model ilp32`: cpp defines __ILP32__) `long` has 4 bytes: the
 * 64-bit types are `long long`; pointers and (u)intptr_t keep porf's 8 bytes. */
#ifdef __ILP32__
#define __PORF_L long long
#else
#define __PORF_L long
#endif
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef __PORF_L int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned __PORF_L uint64_t;
typedef signed char int_least8_t;
typedef short int_least16_t;
typedef int int_least32_t;
typedef __PORF_L int_least64_t;
typedef unsigned char uint_least8_t;
typedef unsigned short uint_least16_t;
typedef unsigned int uint_least32_t;
typedef unsigned __PORF_L uint_least64_t;
typedef signed char int_fast8_t;
typedef __PORF_L int_fast16_t;
typedef __PORF_L int_fast32_t;
typedef __PORF_L int_fast64_t;
typedef unsigned char uint_fast8_t;
typedef unsigned __PORF_L uint_fast16_t;
typedef unsigned __PORF_L uint_fast32_t;
typedef unsigned __PORF_L uint_fast64_t;
typedef __PORF_L intptr_t;
typedef unsigned __PORF_L uintptr_t;
typedef __PORF_L intmax_t;
typedef unsigned __PORF_L uintmax_t;

#define INT8_MIN (-128)
#define INT16_MIN (-32767 - 1)
#define INT32_MIN (-2147483647 - 1)
#define INT64_MIN (-9223372036854775807LL - 1)
#define INT8_MAX 127
#define INT16_MAX 32767
#define INT32_MAX 2147483647
#define INT64_MAX 9223372036854775807LL
#define UINT8_MAX 255
#define UINT16_MAX 65535
#define UINT32_MAX 4294967295U
#define UINT64_MAX 18446744073709551615ULL
#define INTPTR_MIN INT64_MIN
#define INTPTR_MAX INT64_MAX
#define UINTPTR_MAX UINT64_MAX
#define INTMAX_MIN INT64_MIN
#define INTMAX_MAX INT64_MAX
#define UINTMAX_MAX UINT64_MAX
#ifdef __ILP32__
#define PTRDIFF_MIN (-2147483647L - 1)
#define PTRDIFF_MAX 2147483647L
#define SIZE_MAX 4294967295UL
#else
#define PTRDIFF_MIN INT64_MIN
#define PTRDIFF_MAX INT64_MAX
#define SIZE_MAX UINT64_MAX
#endif

#define INT8_C(c) c
#define INT16_C(c) c
#define INT32_C(c) c
#define INT64_C(c) c##LL
#define UINT8_C(c) c
#define UINT16_C(c) c
#define UINT32_C(c) c##U
#define UINT64_C(c) c##ULL
#define INTMAX_C(c) c##LL
#define UINTMAX_C(c) c##ULL
#endif

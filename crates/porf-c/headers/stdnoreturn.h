/* porf bundled <stdnoreturn.h> (C11 7.23). */
#ifndef __PORF_STDNORETURN_H
#define __PORF_STDNORETURN_H
#define noreturn _Noreturn
#endif

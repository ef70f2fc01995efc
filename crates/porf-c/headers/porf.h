/* porf bundled <porf.h>: the verifier interface. */
#ifndef __PORF_PORF_H
#define __PORF_PORF_H
#include <stdbool.h>
void __VERIFIER_assume(bool cond);
int __VERIFIER_nondet_int(void);
#endif

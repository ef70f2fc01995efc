/* porf bundled <genmc.h>: the verifier interface of GenMC programs. */
#ifndef __PORF_GENMC_H
#define __PORF_GENMC_H
#include <stdbool.h>
void __VERIFIER_assume(bool cond);
int __VERIFIER_nondet_int(void);
#endif

// SV-COMP's nondet functions of integer types, each with the values of
// --nondet-range 0..1 (both fit every type): 2^8 = 256 complete executions.
// args: --nondet-range 0..1
// expect sc: safe 256
unsigned char __VERIFIER_nondet_uchar(void);
unsigned long __VERIFIER_nondet_size_t(void);
unsigned int __VERIFIER_nondet_u32(void);
long long __VERIFIER_nondet_longlong(void);
unsigned long long __VERIFIER_nondet_ulonglong(void);
long __VERIFIER_nondet_loff_t(void);
unsigned short __VERIFIER_nondet_ushort(void);
char __VERIFIER_nondet_char(void);
#include <assert.h>

int main(void)
{
	int s = __VERIFIER_nondet_uchar() + __VERIFIER_nondet_size_t() + __VERIFIER_nondet_u32() +
		__VERIFIER_nondet_longlong() + __VERIFIER_nondet_ulonglong() + __VERIFIER_nondet_loff_t() +
		__VERIFIER_nondet_ushort() + __VERIFIER_nondet_char();
	assert(s >= 0 && s <= 8);
	return 0;
}

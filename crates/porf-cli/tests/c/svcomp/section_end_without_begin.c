// `__VERIFIER_atomic_end()` without an open section is an error at the call.
// expect sc: rejected "without an open atomic section"
int x;

int main(void)
{
	__VERIFIER_atomic_begin();
	x = 1;
	__VERIFIER_atomic_end();
	__VERIFIER_atomic_end();
	return 0;
}

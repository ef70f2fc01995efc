// An extended-asm fence without a "memory" clobber: the compiler may move memory
// accesses across it, so it orders nothing reliably; refused when reached.
// expect rc11: rejected "without a "memory" clobber"
int main(void)
{
	asm volatile("mfence" ::: "cc");
	return 0;
}

// Inline assembly that is not a barrier (here `pause`, x86's spin-wait hint) is an
// unsupported-input error at the statement when an execution reaches it.
// expect rc11: rejected "inline assembly `pause` is not supported"
// expect-stderr: asm_other_reached.c:8:2
int main(void)
{
	int spins = 1;
	asm volatile("pause" ::: "memory");
	return spins - 1;
}

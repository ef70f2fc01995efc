// expect: unsupported 4:2
int main(void)
{
	__asm__ volatile("mfence" ::: "memory");
	return 0;
}

// A retire is a free for the double-free rule (GenMC: two frees or retires of one
// block). By hand: one thread, malloc, retire, free: double free.
// expect: memory "double free"
#include <genmc.h>
#include <stdlib.h>

int main(void)
{
	int *p = malloc(sizeof(int));
	__VERIFIER_hp_retire(p);
	free(p);
	return 0;
}

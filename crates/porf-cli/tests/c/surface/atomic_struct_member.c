// Accessing a member of an atomic struct is undefined behaviour (C11 6.5.2.3p5):
// refused where reached, naming the member.
// expect: rejected "member `a` of an atomic struct"
#include <stdatomic.h>

struct s { int a; int b; };
_Atomic struct s g;

int main(void)
{
	return g.a;
}

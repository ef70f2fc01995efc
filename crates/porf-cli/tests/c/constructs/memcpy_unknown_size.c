// A memcpy porf cannot copy (a size that is not a constant) is an "unsupported"
// error when it runs, not when it is compiled: copy(4) takes the constant branch and
// copy(3) reaches the general one, which stops the exploration with exit 3.
// expect rc11 sc: rejected "`memcpy` with a size that is not a constant"
#include <string.h>

int a, b;

static void copy(int n)
{
	switch (n) {
	case 4:
		memcpy(&b, &a, 4);
		break;
	default:
		memcpy(&b, &a, n);
	}
}

int main(void)
{
	copy(4);
	copy(3);
	return 0;
}

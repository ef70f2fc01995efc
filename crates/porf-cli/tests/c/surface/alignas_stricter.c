// `_Alignas` stricter than the type's own alignment would move the object to a
// stricter address and, for members of a frame, change the layout: porf's layout does
// not do that, so the declaration is rejected, never laid out wrongly.
// expect: rejected "stricter than its type's own"
#include <stdalign.h>

alignas(64) int padded;

int main(void)
{
	return padded;
}

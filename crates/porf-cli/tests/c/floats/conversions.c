// Conversions between integers, float and double in every place C performs them, and
// the IEEE facts ordinary code relies on, single-threaded (one execution). Each
// assertion states a value fixed by C11 6.3.1.4/6.3.1.5/6.3.1.8 and IEEE 754 binary32/
// binary64 with round-to-nearest-even:
// - float -> int truncates toward zero (7.9 -> 7, -7.9 -> -7); to unsigned, -0.5 -> 0;
// - int -> float rounds to nearest even: 16777217 (2^24 + 1) -> 16777216.0f;
// - double -> float rounds: (float)0.1 == 0.1f and differs from 0.1;
// - -0.0 == 0.0, and !(-0.0) is 1; a NaN compares unequal to itself;
// - 1/3 * 3 == 1 in binary64 (the product of the rounded third rounds back to 1);
// - 0.1f + 0.2f == 0.3f in binary32 (unlike binary64);
// - 1e10f is exact (9765625 * 2^10) and floats near it are 1024 apart, so
//   0.5f + 1e10f rounds back to 1e10f.
// expect: safe 1
#include <assert.h>
#include <stdlib.h>

struct rec {
	char tag;
	double d;
	float f[2];
};

struct rec global_rec = { 'r', -2.25, { 0.5f, 1e10f } };
float table[3] = { 1, 2.5, 0x1.8p1 };

double half(double d)
{
	return d / 2;
}

float to_float(int i)
{
	return i;
}

int trunc_int(double d)
{
	return d;
}

int main(void)
{
	double d = 7.9;
	int i = d;
	assert(i == 7);
	assert(trunc_int(-7.9) == -7);
	assert((int)-7.9 == -7);
	unsigned u = -0.5;
	assert(u == 0);
	unsigned big = 4e9;
	assert(big == 4000000000u);
	long l = -1e18;
	assert(l == -1000000000000000000L);
	assert(to_float(16777217) == 16777216.0f);
	assert((float)0.1 == 0.1f && (double)0.1f != 0.1);
	double z = -0.0;
	assert(z == 0.0 && !z && !(z < 0));
	if (z)
		abort();
	if (-0.0 || (-0.0 && 1) || !(0.5 && 0.25))
		abort();
	assert(!-0.0 && (-0.0 ? 0 : 1) && (_Bool)-0.0 == 0);
	double nan = z / z;
	assert(nan != nan && !(nan == nan) && !(nan < 1) && !(nan >= 1));
	assert(nan);
	assert(1.0 / 3 * 3 == 1);
	assert(0.1f + 0.2f == 0.3f);
	assert(half(3) == 1.5);
	d = 1;
	d += 0.5;
	d *= 4;
	d -= 1;
	d /= 2;
	assert(d == 2.5);
	d++;
	--d;
	++d;
	assert(d == 3.5);
	i = 10;
	i *= 0.75;
	assert(i == 7);
	i += 0.9;
	assert(i == 7);
	_Bool b = 0.25;
	assert(b == 1);
	b = -0.0;
	assert(b == 0);
	char c = 65.7;
	assert(c == 'A');
	assert(-global_rec.d == 2.25 && global_rec.f[0] + global_rec.f[1] == 1e10);
	assert(table[0] + table[1] + table[2] == 6.5f);
	double *heap = malloc(2 * sizeof(double));
	heap[0] = 1e-3;
	heap[1] = heap[0] * 1000;
	assert(heap[1] == 1 && heap[0] < 0.0011 && heap[0] > 0.0009f);
	free(heap);
	double t = i > 3 ? 1 : 2.5;
	assert(t == 1.0);
	return 0;
}

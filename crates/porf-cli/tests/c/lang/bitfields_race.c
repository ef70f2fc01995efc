// Two threads write *adjacent* bit-fields of one struct without synchronisation.
// Adjacent bit-fields are one memory location (C11 3.14), and each write is a
// read-modify-write of their storage unit, so the writes race: a data race, as C11
// says (and either update may be lost on real hardware).
// expect: race
#include <pthread.h>

struct pair {
	unsigned a : 4;
	unsigned b : 4;
};

struct pair p;

static void *set_b(void *arg)
{
	p.b = 3;
	return 0;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, set_b, 0);
	p.a = 5;
	pthread_join(t, 0);
	return 0;
}

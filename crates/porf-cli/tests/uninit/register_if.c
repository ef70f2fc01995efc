// A register local (its address is never taken) read in an `if` before any write:
// undefined behaviour (C11 6.3.2.1p2). Read as 0 it would hide the race on `x` that
// every non-zero value gives.
// porf-expect ALL: memory "read of an uninitialised local variable `flag`"
#include <pthread.h>

int x;

void *t(void *a)
{
	x = 1;
	return 0;
}

int main()
{
	pthread_t th;
	int flag;
	pthread_create(&th, 0, t, 0);
	if (flag)
		x = 2;
	pthread_join(th, 0);
	return 0;
}

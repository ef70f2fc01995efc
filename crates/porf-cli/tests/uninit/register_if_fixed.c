// The fixed variant of register_if.c: `flag` is written on every path before it is
// read (in one branch only, so the read is checked at run time).
// porf-expect ALL: safe
#include <pthread.h>

int x;

void *t(void *a)
{
	x = 1;
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t th;
	int flag;
	if (argc > 5)
		flag = 1;
	else
		flag = 0;
	pthread_create(&th, 0, t, 0);
	if (flag)
		x = 2;
	pthread_join(th, 0);
	return 0;
}

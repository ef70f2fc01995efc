/* A witness shows what each thread printed before each of its events, and pointers
 * by name. The assertion fails exactly when main reads the writer's 1 from x. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

atomic_int x;
int g;
int *p;
int **q;

void *writer(void *arg)
{
	atomic_store(&x, 1);
	printf("writer: stored %d\n", 1);
	return NULL;
}

int main()
{
	pthread_t t;
	p = &g;
	q = malloc(sizeof(int *));
	*q = p;
	printf("main: p=%p %s %5d|%-3x|%c\n", (void *)p, "begins", 42, 10, 'z');
	pthread_create(&t, NULL, writer, NULL);
	int r = atomic_load(&x);
	printf("main: read %d\n", r);
	puts("main: checking");
	assert(r == 0 && "x is still 0");
	return 0;
}

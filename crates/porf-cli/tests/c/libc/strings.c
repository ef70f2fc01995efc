/* <string.h> over global, heap and literal strings, with a thread copying into a
 * buffer main reads after the join. Everything is ordered by spawn and join and no
 * value is read before it is written: one complete execution, no error. Also checks
 * that sched_yield, usleep and sleep are no-ops (no events, no blocking). */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char buf[8];

void *copier(void *arg)
{
	strcpy(buf, "abc");
	sched_yield();
	usleep(10);
	sleep(1);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, copier, NULL);
	pthread_join(t, NULL);
	assert(strlen(buf) == 3);
	assert(strcmp(buf, "abc") == 0);
	assert(strcmp("abd", "abc") > 0);
	assert(strcmp("ab", "abc") < 0);
	/* compared as unsigned char: 0xff is above 'a' */
	assert(strcmp("\xff", "a") > 0);
	assert(strlen("") == 0);

	char *p = malloc(4);
	assert(strcpy(p, buf) == p);
	assert(strlen(p) == 3 && p[3] == 0);
	free(p);

	int a[2] = {1, 2}, b[2] = {1, 3};
	assert(memcmp(a, a, sizeof a) == 0);
	assert(memcmp(a, b, sizeof a) < 0);
	assert(memcmp(b, a, sizeof a) > 0);
	/* little-endian: 0x100 is the bytes 00 01, 0x1 is 01 00: the first byte decides */
	int c = 0x100, d = 0x1;
	assert(memcmp(&c, &d, sizeof c) < 0);
	long e = -1, f = 0x7f;
	/* bytes ff ff .. vs 7f 00 ..: 0xff > 0x7f as unsigned char */
	assert(memcmp(&e, &f, sizeof e) > 0);
	return 0;
}
// expect rc11 sc: safe 1

// <ctype.h> (the "C" locale: ASCII classes, C11 7.4), <stdalign.h> (alignas at a
// type's own alignment, alignof), <stdnoreturn.h>, <sys/types.h> (with <unistd.h>,
// whose types it repeats identically) and <time.h> (porf's deterministic stand-ins:
// every clock reads 0, nanosleep returns 0 at once). One thread: one execution.
// expect rc11 sc: safe 1
#include <assert.h>
#include <ctype.h>
#include <stdalign.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

alignas(long) long aligned;
alignas(int) int also_aligned;

noreturn static void die(void) { abort(); }

int main(void)
{
	assert(isdigit('7') && !isdigit('a') && !isdigit(-1));
	assert(isalpha('x') && isalpha('Q') && !isalpha('_'));
	assert(isalnum('0') && isxdigit('F') && isxdigit('a') && !isxdigit('g'));
	assert(isspace(' ') && isspace('\n') && isspace('\v') && !isspace('x'));
	assert(isupper('A') && islower('a') && ispunct('!') && !ispunct('a'));
	assert(iscntrl('\n') && isprint(' ') && !isgraph(' ') && isblank('\t'));
	assert(toupper('q') == 'Q' && toupper('1') == '1' && tolower('Z') == 'z');
	assert(alignof(long) == 8 && alignof(char) == 1 && __alignas_is_defined);
	ssize_t n = -1;
	pid_t p = 1;
	off_t o = 0;
	assert(n < 0 && p == 1 && o == 0 && sizeof(ssize_t) == 8);
	time_t t = 5;
	assert(time(&t) == 0 && t == 0 && time(NULL) == 0);
	assert(clock() == 0 && CLOCKS_PER_SEC == 1000000);
	struct timespec ts = {7, 7};
	assert(clock_gettime(CLOCK_MONOTONIC, &ts) == 0 && ts.tv_sec == 0 && ts.tv_nsec == 0);
	assert(nanosleep(&ts, NULL) == 0 && usleep(10) == 0);
	assert(difftime(10, 4) == 6.0);
	if (aligned != 0)
		die();
	return 0;
}

// memset/memcpy/memmove over typed objects, <unistd.h>, <sched.h>, <errno.h>,
// <inttypes.h>, aligned_alloc: single-threaded, one execution; the values follow
// from the C standard (memset writes the byte into every byte of each object).
// expect rc11 sc: safe 1
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct s { int a; char b; long c[2]; };
struct s g = { 1, 2, { 3, 4 } };
int arr[4] = { 1, 2, 3, 4 };

int main(void)
{
	struct s l;
	memcpy(&l, &g, sizeof l);
	assert(l.a == 1 && l.b == 2 && l.c[1] == 4);
	memset(&g, 0xff, sizeof(g));
	assert(g.a == -1 && g.b == -1 && g.c[0] == -1 && g.c[1] == -1);
	memset(arr, 0, sizeof(arr));
	memmove(arr + 1, &l.a, sizeof(int));
	assert(arr[0] == 0 && arr[1] == 1 && arr[3] == 0);
	usleep(10);
	sleep(1);
	sched_yield();
	errno = EINVAL;
	int64_t *p = aligned_alloc(8, 16);
	p[1] = 5;
	assert(p[1] == 5);
	free(p);
	assert(errno == 22);
	return 0;
}

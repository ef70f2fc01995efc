// Thread-local storage (C11 _Thread_local, GNU __thread): every thread has its own
// copy, initialised like a static object (C11 6.2.4p4). Each thread writes only its
// own copies, so the threads share nothing but spawn and join: one execution.
// expect rc11 sc: safe 1
#include <assert.h>
#include <pthread.h>

__thread int tid = 7;
_Thread_local long hist[3];

static void *worker(void *arg)
{
	static _Thread_local int *self;
	assert(tid == 7 && hist[1] == 0 && self == 0);
	tid = (int)(long)arg;
	self = &tid;
	hist[1] = tid;
	assert(*self == (int)(long)arg && hist[1] == tid);
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, worker, (void *)1);
	pthread_create(&b, 0, worker, (void *)2);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(tid == 7 && hist[1] == 0);
	return 0;
}

// SV-COMP's lock idiom: acquire and release are atomic sections that assume the
// lock's state and flip it. A thread whose acquire finds the lock taken is blocked
// (a failed assume cuts the path, and no one else runs inside its section); the
// critical sections never overlap. Complete executions: the two orders of the
// critical sections (2). cnt is ordered by the lock's atomic accesses: no race.
// expect sc: safe 2
#include <pthread.h>
#include <assert.h>

int m, cnt;

void __VERIFIER_atomic_acquire(void)
{
	__VERIFIER_assume(m == 0);
	m = 1;
}

void __VERIFIER_atomic_release(void)
{
	__VERIFIER_assume(m == 1);
	m = 0;
}

void *worker(void *arg)
{
	__VERIFIER_atomic_acquire();
	cnt++;
	assert(cnt == 1);
	cnt--;
	__VERIFIER_atomic_release();
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, worker, 0);
	pthread_create(&b, 0, worker, 0);
	return 0;
}

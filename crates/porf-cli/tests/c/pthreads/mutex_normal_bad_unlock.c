// Unlocking a normal mutex the thread does not hold is reported (undefined in POSIX).
// expect rc11 sc: lock "does not hold"
#include <pthread.h>

pthread_mutex_t m;

int main(void)
{
	pthread_mutex_unlock(&m);
	return 0;
}

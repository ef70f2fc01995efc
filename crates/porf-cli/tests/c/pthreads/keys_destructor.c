// Key destructors are not supported: a clear error.
// expect rc11 sc: rejected "destructor"
#include <pthread.h>

pthread_key_t key;

static void drop(void *p) {}

int main(void)
{
	pthread_key_create(&key, drop);
	return 0;
}

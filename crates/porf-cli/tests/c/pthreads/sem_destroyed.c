// Waiting on a destroyed semaphore is undefined (POSIX sem_destroy): an error.
// expect rc11 sc: memory "sem_wait on a destroyed semaphore"
#include <semaphore.h>

sem_t s;

int main(void)
{
	sem_init(&s, 0, 1);
	sem_destroy(&s);
	sem_wait(&s);
	return 0;
}

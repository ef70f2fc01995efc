/* Threads: arguments, return values, joins, mutexes, pthread_self. */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int total;

struct job {
	int in;
	int out;
};

void *square(void *arg)
{
	struct job *j = arg;
	j->out = j->in * j->in;
	return (void *)(intptr_t)(j->in + 1);
}

void *add_ref(void *arg)
{
	int k = *(int *)arg;
	pthread_mutex_lock(&lock);
	total += k;
	pthread_mutex_unlock(&lock);
	return NULL;
}

void *add(void *arg)
{
	int k = (int)(long)arg;
	pthread_mutex_lock(&lock);
	total += k;
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	static struct job jobs[2] = {{3, 0}, {4, 0}};
	pthread_t t[2], u[3];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, square, &jobs[i]);
	for (int i = 0; i < 3; i++)
		pthread_create(&u[i], NULL, add, (void *)(long)(i + 1));
	int vals[2] = {10, 20};
	pthread_t v[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&v[i], NULL, add_ref, &vals[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(v[i], NULL);
	void *ret;
	pthread_join(t[0], &ret);
	assert((intptr_t)ret == 4);
	pthread_join(t[1], NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(u[i], 0);
	assert(jobs[0].out == 9 && jobs[1].out == 16);
	assert(total == 36);
	assert(pthread_equal(pthread_self(), pthread_self()));
	assert(pthread_mutex_trylock(&lock) == 0);
	pthread_mutex_unlock(&lock);
	return 0;
}

// A heap struct with double and float fields is filled by main, handed to a thread
// (pthread_create orders main's writes before the thread), updated there, and read
// back after the join: everything is ordered, so there is one execution, and the
// values are exact (dyadic rationals and small integers): 0.75 * 4 + 0.25f = 3.25,
// stored in the double field, and the float field halved to 0.125f.
// expect: safe 1
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct job {
	double in;
	float weight;
	int n;
	double out[2];
};

void *work(void *arg)
{
	struct job *j = arg;
	j->out[0] = j->in * j->n + j->weight;
	j->weight /= 2;
	j->out[1] = -j->out[0];
	return 0;
}

int main(void)
{
	struct job *j = malloc(sizeof *j);
	j->in = 0.75;
	j->weight = 0.25f;
	j->n = 4;
	pthread_t t;
	pthread_create(&t, 0, work, j);
	pthread_join(t, 0);
	assert(j->out[0] == 3.25 && j->out[1] == -3.25);
	assert(j->weight == 0.125f && j->weight == 0.125);
	free(j);
	return 0;
}

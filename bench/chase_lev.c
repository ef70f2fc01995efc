/*
 * A Chase-Lev work-stealing deque client (issue 27's benchmark), after the C11 version of
 * Le, Pop, Cohen and Zappa Nardelli, "Correct and efficient work-stealing for weak memory
 * models" (PPoPP 2013), with a fixed-size buffer (no resizing). The owner pushes TASKS
 * tasks, starts THIEVES threads that steal once each, and takes TAKES times. Its two
 * seq_cst fences (in take, between the store of bottom and the load of top; in steal,
 * between the loads of top and bottom) are what makes a task taken at most once: the
 * assertion checks that no task is taken twice. -DNOFENCES drops the two
 * fences (the assertion may then fail).
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef TASKS
#define TASKS 4
#endif
#ifndef TAKES
#define TAKES 2
#endif
#ifndef THIEVES
#define THIEVES 3
#endif

#ifdef NOFENCES
#define SC_FENCE() ((void)0)
#else
#define SC_FENCE() atomic_thread_fence(memory_order_seq_cst)
#endif

#define RLX memory_order_relaxed
#define EMPTY (-1)
#define ABORT (-2)

atomic_int top, bottom;
atomic_int buf[TASKS];
int got[THIEVES]; /* what each thief stole, or EMPTY / ABORT */

void push(int v)
{
	int b = atomic_load_explicit(&bottom, RLX);
	atomic_store_explicit(&buf[b], v, RLX);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&bottom, b + 1, RLX);
}

int take(void)
{
	int b = atomic_load_explicit(&bottom, RLX) - 1;
	atomic_store_explicit(&bottom, b, RLX);
	SC_FENCE();
	int t = atomic_load_explicit(&top, RLX);
	int v = EMPTY;
	if (t <= b) {
		v = atomic_load_explicit(&buf[b], RLX);
		if (t == b) {
			if (!atomic_compare_exchange_strong_explicit(
				    &top, &t, t + 1, memory_order_seq_cst, RLX))
				v = EMPTY;
			atomic_store_explicit(&bottom, b + 1, RLX);
		}
	} else {
		atomic_store_explicit(&bottom, b + 1, RLX);
	}
	return v;
}

int steal(void)
{
	int t = atomic_load_explicit(&top, memory_order_acquire);
	SC_FENCE();
	int b = atomic_load_explicit(&bottom, memory_order_acquire);
	if (t >= b)
		return EMPTY;
	int v = atomic_load_explicit(&buf[t], RLX);
	if (!atomic_compare_exchange_strong_explicit(&top, &t, t + 1,
						     memory_order_seq_cst, RLX))
		return ABORT;
	return v;
}

void *thief(void *arg)
{
	got[(long)arg] = steal();
	return NULL;
}

int main()
{
	pthread_t th[THIEVES];
	int taken[TASKS] = {0};
	for (int i = 0; i < TASKS; i++)
		push(i);
	for (long i = 0; i < THIEVES; i++)
		pthread_create(&th[i], NULL, thief, (void *)i);
	for (int i = 0; i < TAKES; i++) {
		int v = take();
		if (v == EMPTY)
			break;
		taken[v]++;
	}
	for (int i = 0; i < THIEVES; i++) {
		pthread_join(th[i], NULL);
		if (got[i] >= 0)
			taken[got[i]]++;
	}
	for (int i = 0; i < TASKS; i++)
		assert(taken[i] <= 1);
	return 0;
}

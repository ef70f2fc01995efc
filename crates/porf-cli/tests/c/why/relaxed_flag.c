// Message passing with a relaxed flag: the acquire read of `flag` reads a relaxed
// store, so nothing orders the write of `data` before its read (issue 26, item 1).
#include <pthread.h>
#include <stdatomic.h>
int data; atomic_int flag; int v;
void *t1(void *a) {
	data = 1; atomic_store_explicit(&flag, 1, memory_order_relaxed);
	return 0; }
void *t2(void *a) {
	if (atomic_load_explicit(&flag, memory_order_acquire)) v = data;
	return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0); return 0; }

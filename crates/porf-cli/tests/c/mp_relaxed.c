/* Message passing with relaxed accesses: the stale read is allowed by RC11's RA,
   forbidden when every access is release/acquire (Lahav and Boker, TOPLAS 2022,
   Ex. 3.4). */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int data, flag;

void *writer(void *arg) {
    atomic_store_explicit(&data, 1, memory_order_relaxed);
    atomic_store_explicit(&flag, 1, memory_order_relaxed);
    return NULL;
}

void *reader(void *arg) {
    if (atomic_load_explicit(&flag, memory_order_relaxed) == 1)
        assert(atomic_load_explicit(&data, memory_order_relaxed) == 1);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, writer, NULL);
    pthread_create(&b, NULL, reader, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}

// Two threads whose loops never exit, one counting and one copying the count: every
// execution grows without end, and the first one explored is extended before any
// alternative is tried. porf stops it at a size limit, incomplete (exit 4).
#include <pthread.h>
#include <stdatomic.h>

atomic_int count, copy;

void *counter(void *arg) {
    for (;;)
        atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, counter, 0);
    for (;;)
        atomic_store_explicit(&copy, atomic_load_explicit(&count, memory_order_acquire),
                              memory_order_release);
}

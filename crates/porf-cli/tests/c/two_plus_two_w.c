/* 2+2W (Lahav and Boker, TOPLAS 2022, Ex. 3.6): final x == 1 && y == 1 is allowed by
   RA and WRA, forbidden by SRA. */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int x, y;

void *t1(void *arg) {
    atomic_store_explicit(&x, 1, memory_order_relaxed);
    atomic_store_explicit(&y, 2, memory_order_relaxed);
    return NULL;
}

void *t2(void *arg) {
    atomic_store_explicit(&y, 1, memory_order_relaxed);
    atomic_store_explicit(&x, 2, memory_order_relaxed);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, t1, NULL);
    pthread_create(&b, NULL, t2, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(!(atomic_load(&x) == 1 && atomic_load(&y) == 1));
    return 0;
}

// Three threads whose loops keep each other going: every execution ends, but the
// exploration reaches ever longer ones (each round of one loop can be undone by
// another's), so it never finishes and its executions keep growing.
#include <pthread.h>
#include <stdatomic.h>

atomic_int a, b, c;

void *ping(void *u) {
    while (atomic_load(&b) != 1) {
        atomic_store(&a, 1);
        atomic_store(&a, 0);
        atomic_store(&b, 1);
    }
    return u;
}

void *pong(void *u) {
    while (atomic_load(&a) == 1 && atomic_load(&b) != 0)
        atomic_store(&c, 1);
    return u;
}

void *reset(void *u) {
    while (atomic_load(&c) == 1) {
        atomic_store(&b, 0);
        atomic_store(&c, 0);
    }
    return u;
}

int main(void) {
    pthread_t t[3];
    pthread_create(&t[0], 0, ping, 0);
    pthread_create(&t[1], 0, pong, 0);
    pthread_create(&t[2], 0, reset, 0);
    return 0;
}

// One thread doing K relaxed writes (compile with -DK=...): one execution of about K
// events, for `scripts/bench.py --sizes`' curve of peak memory against the length of
// an execution.
#include <stdatomic.h>

atomic_int x;

int main(void) {
    for (int i = 0; i < K; i++)
        atomic_store_explicit(&x, i, memory_order_relaxed);
    return 0;
}

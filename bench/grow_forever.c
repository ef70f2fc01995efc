// One thread whose loop never exits: its one execution grows without end. Before
// porf had --max-events-per-execution and --memory-limit, exploring it ran until
// the machine ran out of memory; now it stops, incomplete (exit 4), naming the
// loop; with --unroll N it is complete up to the bound.
#include <stdatomic.h>

atomic_int x;

int main(void) {
    for (;;)
        atomic_store_explicit(&x, 1, memory_order_relaxed);
}

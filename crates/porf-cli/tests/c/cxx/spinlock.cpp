// A C++ test-and-set lock: porf checks C, so it refuses this file by name (also a
// `.cc` copy the test makes), before the C preprocessor would fail on <atomic>.
#include <atomic>
#include <thread>

std::atomic<bool> locked{false};
int counter;

void work() {
    while (locked.exchange(true, std::memory_order_acquire)) {
    }
    counter++;
    locked.store(false, std::memory_order_release);
}

int main() {
    std::thread a(work), b(work);
    a.join();
    b.join();
    return counter == 2 ? 0 : 1;
}

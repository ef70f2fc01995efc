// porf's <lkmm.h> has no model of RCU: reaching rcu_read_lock is an "unsupported"
// error naming it (exit code 3), never a lock ignored in silence.
// expect: rejected "`rcu_read_lock` (lkmm.h's RCU) is not supported"
#include <lkmm.h>

int x;

int main(void)
{
	rcu_read_lock();
	WRITE_ONCE(x, 1);
	rcu_read_unlock();
	return 0;
}

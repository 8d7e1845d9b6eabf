/*
 * A core's calibrated clock as the software PURR's program keeps it
 * (sched_purr_clock.h, the program's own functions), on the race between
 * two siblings, worked by hand.  A switch reads the clock, then takes the
 * core's lock: a sibling that read the clock later can take the lock first.
 *
 * Two threads of a core, c(1) = 0.75 and c(2) = 0.5 (x 2^16):
 *   1000  thread 0 starts (the core was idle)
 *   3000  thread 1 reads the clock to start, and is held before the lock
 *   4000  thread 0 reads the clock to stop, and takes the lock first
 *         (acc: 3000 ns at 0.75 = 2250)
 *   then  thread 1 takes the lock: its switch is taken at 4000, the core's
 *         last change; nothing is added (no stretch counted twice)
 *   8000  thread 1 stops: 4000 ns alone at 0.75 = 3000, acc 5250
 * Every ns the lock saw a thread busy is counted once, at the share of the
 * threads busy then: 0.75 x (3000 + 4000) = 5250.  Moving the core's last
 * change back to 3000 would have made it 6000, and thread 1's spell 3750.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sched_purr_clock.h"

static const struct sp_shares two_threads = { .share = { 0, 49152, 32768 } };

static void a_sibling_late_to_the_lock_counts_nothing_twice(void **state)
{
	struct sp_core c = { 0 };
	__u64 now, k, acc0_thread1;
	(void)state;

	now = 1000;					/* thread 0 starts */
	k = sp_core_advance(&c, &two_threads, &now);
	assert_true(k == 0 && now == 1000 && c.acc == 0 && c.last == 1000);
	c.nbusy = 1;

	now = 4000;					/* thread 0 stops, first to the lock */
	k = sp_core_advance(&c, &two_threads, &now);
	assert_true(k == 1 && now == 4000);
	assert_true(c.acc == 2250);			/* thread 0's spell: 3000 x 0.75 */
	c.nbusy = 0;

	now = 3000;					/* thread 1 starts, read before thread 0's */
	k = sp_core_advance(&c, &two_threads, &now);
	assert_true(now == 4000);			/* taken at the core's last change */
	assert_true(c.last == 4000 && c.acc == 2250);
	assert_true(k == 0);
	acc0_thread1 = c.acc;
	c.nbusy = 1;

	now = 8000;					/* thread 1 stops */
	k = sp_core_advance(&c, &two_threads, &now);
	assert_true(k == 1);
	assert_true(c.acc - acc0_thread1 == 3000);	/* its spell: 4000 x 0.75 */
	assert_true(c.acc == 5250);
}

/* Both busy from 2000 to 6000 (0.5 each), thread 0 alone before and after
 * (0.75): thread 0's spell 1000 to 7000 earns 750 + 2000 + 750. */
static void shares_follow_the_busy_threads(void **state)
{
	struct sp_core c = { 0 };
	__u64 now, acc0;
	(void)state;

	now = 1000;
	sp_core_advance(&c, &two_threads, &now);
	acc0 = c.acc;
	c.nbusy = 1;
	now = 2000;
	sp_core_advance(&c, &two_threads, &now);
	c.nbusy = 2;
	now = 6000;
	assert_true(sp_core_advance(&c, &two_threads, &now) == 2);
	c.nbusy = 1;
	now = 7000;
	sp_core_advance(&c, &two_threads, &now);
	assert_true(c.acc - acc0 == 3500);
}

/* The loader's read with a clock behind the core's last change (read on
 * another CPU): acc as it stands, never less. */
static void a_read_behind_the_last_change_is_acc(void **state)
{
	struct sp_core c = { .nbusy = 2, .last = 5000, .acc = 777 };
	(void)state;

	assert_true(sp_core_acc_at(&c, &two_threads, 4000) == 777);
	assert_true(sp_core_acc_at(&c, &two_threads, 5000) == 777);
	assert_true(sp_core_acc_at(&c, &two_threads, 5100) == 827);	/* + 100 x 0.5 */
}

/* dt x share / 2^16 rounded down, by hand: 123456789 x 1/2 = 61728394.5;
 * 2^60 x 65535 / 2^16 = 2^44 x 65535, which a plain product would
 * overflow. */
static void scale_is_exact_for_any_span(void **state)
{
	(void)state;
	assert_true(sp_scale(123456789, 32768) == 61728394);
	assert_true(sp_scale(1ull << 60, 65535) == (1ull << 44) * 65535);
	assert_true(sp_scale(65535, 65535) == 65534);	/* 65535^2 / 65536 = 65534.00002 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_sibling_late_to_the_lock_counts_nothing_twice),
		cmocka_unit_test(shares_follow_the_busy_threads),
		cmocka_unit_test(a_read_behind_the_last_change_is_acc),
		cmocka_unit_test(scale_is_exact_for_any_span),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * The high-water mark under the software PURR's per-CPU clocks, on the race
 * it is for, worked by hand: a thread busy from 0 stops at 990 ns, a switch
 * the program writes only after the sampler has read at 1000 (so that
 * reading carried the spell on to 1000); it runs again from 1600.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "highwater.h"

static void a_short_reading_is_held_and_made_up(void **state)
{
	uint64_t mark = 0, total = 0, g;
	(void)state;

	total += highwater_advance(&mark, 1000, 100000);	/* at 1000: 0 to 1000, running */
	g = highwater_advance(&mark, 990, 100000);		/* at 1500: stopped at 990 */
	assert_true(g == 0);
	assert_true(mark == 1000);
	total += g;
	total += highwater_advance(&mark, 1390, 100000);	/* at 2000: 990 + 400 since 1600 */
	assert_true(total == 1390);				/* what it really ran */
	assert_true(mark == 1390);
}

static void far_back_is_a_restart(void **state)
{
	uint64_t mark = 1390;
	(void)state;

	assert_true(highwater_advance(&mark, 5, 1000) == HIGHWATER_RESTARTED);
	assert_true(mark == 5);
	assert_true(highwater_advance(&mark, 20, 1000) == 15);
	/* exactly the slack back: still held */
	assert_true(highwater_advance(&mark, 0, 20) == 0);
	assert_true(mark == 20);
	assert_true(highwater_advance(&mark, 20, 20) == 0);
	assert_true(highwater_advance(&mark, 21, 20) == 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_short_reading_is_held_and_made_up),
		cmocka_unit_test(far_back_is_a_restart),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * The software PURR's reader carries a spell under way on to its own time
 * (CLOCK_MONOTONIC) on the core's clock, which the program times switches
 * by (the run queue's clock): through the pair the core last took,
 * CLOCK_MONOTONIC = core clock + mono_off.  Figures worked by hand: a core
 * with two threads busy, c(2) = 0.625 (POWER7 SMT4's one-of-four figure
 * stands in: 40960 / 65536 exactly).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "alloc_count.h"
#include "sched_purr.h"

static struct sp_core core;
static struct sp_shares shares;

/* Thread 0 runs since core time 800,000 ns, when the core's acc was
 * 400,000; the core last moved at 1,000,000 with acc 500,000. */
static struct sched_purr *setup_core(int64_t mono_off, uint64_t mono_now)
{
	static struct sched_purr sp;

	memset(&sp, 0, sizeof sp);
	memset(&core, 0, sizeof core);
	memset(&shares, 0, sizeof shares);
	shares.share[2] = 40960;
	core.nbusy = 2;
	core.last = 1000000;
	core.acc = 500000;
	core.sync = 900000;
	core.mono_off = mono_off;
	core.t[0].running = 1;
	core.t[0].t0 = 800000;
	core.t[0].acc0 = 400000;
	core.t[0].clock = 10000;
	core.t[0].busy = 20000;
	sp.ncpus = 1;
	sp.core = &core;
	sp.shares = &shares;
	sp.now = mono_now;
	return &sp;
}

/* Core time 1,200,000: the acc grows by 200,000 x 0.625 = 125,000 to
 * 625,000; the spell has earned 225,000 of 400,000 busy. */
static void expect_at_core_time_1200000(const struct sched_purr *sp)
{
	uint64_t clock, busy, spell_clock, spell_busy;

	sched_purr_thread_now(sp, 0, 0, &clock, &busy, &spell_clock, &spell_busy);
	assert_int_equal(spell_clock, 225000);
	assert_int_equal(spell_busy, 400000);
	assert_int_equal(clock, 235000);
	assert_int_equal(busy, 420000);
}

static void monotonic_ahead_of_the_core(void **state)
{
	(void)state;
	/* CLOCK_MONOTONIC 5 s ahead: the reader's 5,001,200,000 is 1,200,000 */
	expect_at_core_time_1200000(setup_core(5000000000LL, 5001200000ULL));
}

static void monotonic_behind_the_core(void **state)
{
	(void)state;
	/* the core's clock 300 us ahead of CLOCK_MONOTONIC */
	expect_at_core_time_1200000(setup_core(-300000, 900000));
}

static void same_clock(void **state)
{
	(void)state;
	expect_at_core_time_1200000(setup_core(0, 1200000));
}

/* A reading before the core's last move (the pair is a little stale)
 * adds nothing to acc and the spell keeps what it had. */
static void reader_behind_the_core_adds_nothing(void **state)
{
	uint64_t clock, busy, spell_clock, spell_busy;
	(void)state;

	sched_purr_thread_now(setup_core(1000, 900000 + 1000), 0, 0, &clock, &busy, &spell_clock,
			      &spell_busy);
	assert_int_equal(spell_clock, 100000);	/* acc 500,000 - acc0 400,000 */
	assert_int_equal(spell_busy, 100000);	/* 900,000 - t0 800,000 */
	assert_int_equal(clock, 110000);
	assert_int_equal(busy, 120000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(monotonic_ahead_of_the_core),
		cmocka_unit_test(monotonic_behind_the_core),
		cmocka_unit_test(same_clock),
		cmocka_unit_test(reader_behind_the_core_adds_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

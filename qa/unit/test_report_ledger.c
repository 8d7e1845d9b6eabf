/*
 * The reports' ledger (report/ledger.c) on records made by hand: a machine
 * of 2 cores, a sample every 10 s, so that a run's smt.all.capacity grows
 * 20000 ms a sample.
 *   t  0  capacity     0, web     0          the first record: a baseline
 *   t 10  capacity 20000, web  5000, db 1000 db is new: it counts from zero
 *   t 40  (a mark)     80000, web  9000      pmlogger stopped for 3 samples'
 *                                            time: a gap, a baseline
 *   t 50  capacity 100000, web 12000         +3000
 *   t 60  capacity  5000, web   500          went back: the agent started again
 *   t 70  capacity 25000, web  2000          +1500
 *   t 80  capacity 45000, web   100          web went back (made again): +100
 *   t 90  capacity 145000, web  900          100000 ms in 10 s of 2 cores: a jump
 * Covered: 0-10, 40-50, 60-70, 70-80: 40 s, capacity 80000 ms; web 5000 +
 * 3000 + 1500 + 100 = 9600 ms, db 1000; gaps at 10-40, 50-60 and 80-90.
 * A mark after two samples' time (20 s) where the capacity ran on (40000
 * ms) is pmlogger's daily rotation: crossed, and counted.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ledger.h"

struct sums { double capacity, web, db, seconds; int intervals; };

static void add(void *arg, const struct interval *iv)
{
	struct sums *s = arg;

	s->capacity += iv->sys[FIG_CAPACITY];
	s->seconds += iv->t1 - iv->t0;
	s->intervals++;
	for (int i = 0; i < iv->nsvc; i++) {
		double g = iv->grew[i][SVC_THROUGHPUT];

		if (isnan(g))
			continue;
		if (iv->svc[i] == 0)
			s->web += g;
		else
			s->db += g;
	}
}

static int feed(struct ledger *l, double t, bool mark, double capacity, double web, double db)
{
	struct observation o[4] = {
		{ FIG_CAPACITY, NULL, capacity },
		{ FIG_NCORES, NULL, 2 },
		{ FIG_SVC_THROUGHPUT, "/system.slice/web.service", web },
		{ FIG_SVC_THROUGHPUT, "/system.slice/db.service", db },
	};
	struct record rec = { .time = t, .mark = mark, .why = mark ? "pmlogger stopped" : NULL,
			      .nobs = db < 0 ? 3 : 4, .obs = o };

	return ledger_feed(l, &rec);
}

static void runs_gaps_and_resets(void **state)
{
	struct sums s = { 0 };
	struct ledger l;
	(void)state;

	ledger_init(&l, add, &s);
	assert_int_equal(feed(&l, 0, false, 0, 0, -1), 0);
	assert_int_equal(feed(&l, 10, false, 20000, 5000, 1000), 0);
	assert_int_equal(feed(&l, 40, true, 80000, 9000, -1), 0);
	assert_int_equal(feed(&l, 50, false, 100000, 12000, -1), 0);
	assert_int_equal(feed(&l, 60, false, 5000, 500, -1), 0);
	assert_int_equal(feed(&l, 70, false, 25000, 2000, -1), 0);
	assert_int_equal(feed(&l, 80, false, 45000, 100, -1), 0);
	assert_int_equal(feed(&l, 90, false, 145000, 900, -1), 0);
	assert_int_equal(ledger_finish(&l, 0, 90), 0);

	assert_int_equal(s.intervals, 4);
	assert_true(s.seconds == 40 && l.covered == 40);
	assert_true(s.capacity == 80000);
	assert_true(s.web == 9600);
	assert_true(s.db == 1000);
	assert_int_equal(l.ngaps, 3);
	assert_true(l.gaps[0].t0 == 10 && l.gaps[0].t1 == 40);
	assert_string_equal(l.gaps[0].why, "pmlogger stopped");
	assert_true(l.gaps[1].t0 == 50 && l.gaps[1].t1 == 60);
	assert_non_null(strstr(l.gaps[1].why, "went back"));
	assert_true(l.gaps[2].t0 == 80 && l.gaps[2].t1 == 90);
	assert_non_null(strstr(l.gaps[2].why, "grew 100 s in 10 s of 2 cores"));
	ledger_free(&l);
}

static void a_daily_rotation_is_crossed(void **state)
{
	struct sums s = { 0 };
	struct ledger l;
	(void)state;

	ledger_init(&l, add, &s);
	assert_int_equal(feed(&l, 0, false, 0, 0, -1), 0);
	assert_int_equal(feed(&l, 10, false, 20000, 1000, -1), 0);
	assert_int_equal(feed(&l, 30, true, 60000, 3000, -1), 0);
	assert_int_equal(ledger_finish(&l, 0, 30), 0);
	assert_true(s.capacity == 60000 && s.web == 3000 && l.covered == 30);
	assert_int_equal(l.ngaps, 0);
	assert_int_equal(l.bridged, 1);
	ledger_free(&l);
}

static void a_record_no_later_counts_once(void **state)
{
	struct sums s = { 0 };
	struct ledger l;
	(void)state;

	ledger_init(&l, add, &s);
	assert_int_equal(feed(&l, 0, false, 0, 0, -1), 0);
	assert_int_equal(feed(&l, 10, false, 20000, 1000, -1), 0);
	assert_int_equal(feed(&l, 10, false, 20000, 1000, -1), 0);	/* the same again */
	assert_int_equal(feed(&l, 5, false, 10000, 500, -1), 0);	/* earlier */
	assert_int_equal(feed(&l, 20, false, 40000, 3000, -1), 0);
	assert_true(s.capacity == 40000 && s.web == 3000 && l.covered == 20);
	assert_int_equal(l.ngaps, 0);
	ledger_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(runs_gaps_and_resets),
		cmocka_unit_test(a_daily_rotation_is_crossed),
		cmocka_unit_test(a_record_no_later_counts_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

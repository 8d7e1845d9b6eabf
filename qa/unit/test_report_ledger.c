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
	assert_int_equal(ledger_finish(&l, 0, 90, NULL), 0);

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
	assert_int_equal(ledger_finish(&l, 0, 30, NULL), 0);
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

/* A record after samples the reader lacks (the key-value store lost them). */
static int feed_lacking(struct ledger *l, double t, double from, double capacity, const char *why)
{
	struct observation o[2] = { { FIG_CAPACITY, NULL, capacity }, { FIG_NCORES, NULL, 2 } };
	struct record rec = { .time = t, .mark = true, .lacking = true, .lack_from = from, .why = why, .nobs = 2,
			      .obs = o };

	return ledger_feed(l, &rec);
}

/* Samples lacking before the first record, between two (one sample's
 * time, which pmlogger's break would be crossed in) and after the last:
 * each a gap with the reader's words however short, none counted.  The
 * window's ends beyond what was lacking, with no samples at all, are said
 * to be that. */
static void lacking_samples_are_gaps(void **state)
{
	struct lack end = { 50, 50, "lacks the last" };
	struct sums s = { 0 };
	struct ledger l;
	(void)state;

	ledger_init(&l, add, &s);
	assert_int_equal(feed_lacking(&l, 10, 0, 20000, "lacks the first"), 0);
	assert_int_equal(feed(&l, 20, false, 40000, 1000, -1), 0);
	assert_int_equal(feed_lacking(&l, 30, 30, 60000, "lacks one"), 0);
	assert_int_equal(feed(&l, 40, false, 80000, 3000, -1), 0);
	assert_int_equal(ledger_finish(&l, 0, 55, &end), 0);
	assert_true(s.capacity == 40000 && l.covered == 20);
	assert_int_equal(l.bridged, 0);
	assert_int_equal(l.ngaps, 3);
	assert_true(l.gaps[0].t0 == 0 && l.gaps[0].t1 == 10 && l.gaps[0].lacking);
	assert_string_equal(l.gaps[0].why, "lacks the first");
	assert_true(l.gaps[1].t0 == 20 && l.gaps[1].t1 == 30 && l.gaps[1].lacking);
	assert_string_equal(l.gaps[1].why, "lacks one");
	assert_true(l.gaps[2].t0 == 40 && l.gaps[2].t1 == 55 && l.gaps[2].lacking);
	assert_string_equal(l.gaps[2].why, "lacks the last");
	ledger_free(&l);

	/* lacking from 300 s into a window of 1000 s, and to 700 s */
	memset(&s, 0, sizeof s);
	end = (struct lack){ 700, 700, "lacks the last" };
	ledger_init(&l, add, &s);
	assert_int_equal(feed_lacking(&l, 310, 300, 20000, "lacks the first"), 0);
	assert_int_equal(feed(&l, 320, false, 40000, 1000, -1), 0);
	assert_int_equal(ledger_finish(&l, 0, 1000, &end), 0);
	assert_int_equal(l.ngaps, 4);
	assert_true(l.gaps[0].t0 == 0 && l.gaps[0].t1 == 300 && !l.gaps[0].lacking);
	assert_true(l.gaps[1].t0 == 300 && l.gaps[1].t1 == 310 && l.gaps[1].lacking);
	assert_true(l.gaps[2].t0 == 320 && l.gaps[2].t1 == 700 && l.gaps[2].lacking);
	assert_true(l.gaps[3].t0 == 700 && l.gaps[3].t1 == 1000 && !l.gaps[3].lacking);
	assert_string_equal(l.gaps[3].why, "no samples to the window's end");
	ledger_free(&l);
}

/* smt.all.capacity of 4 cores near 1.4e11 ms (an agent up 400 days) as the
 * key-value store keeps it, 7 significant digits: it grows 240 s a minute,
 * read as 200 s or 300 s. */
static int feed_rounded(struct ledger *l, double t, int digits)
{
	double exact = 138240000000.0 + t * 4000, step = 100000;
	struct observation o[2] = { { FIG_CAPACITY, NULL, floor(exact / step + 0.5) * step }, { FIG_NCORES, NULL, 4 } };
	struct record rec = { .time = t, .nobs = 2, .obs = o, .digits = digits };

	return ledger_feed(l, &rec);
}

/* Rounded so, a minute's growth is out of the bounds of one run (300 s in
 * 60 s of 4 cores, above 252 s and the slack); told that the values were
 * rounded to 7 digits, the ledger allows the last digit's step. */
static void rounded_counters_are_one_run(void **state)
{
	struct sums s = { 0 };
	struct ledger l;
	(void)state;

	for (int digits = 0; digits <= 7; digits += 7) {
		memset(&s, 0, sizeof s);
		ledger_init(&l, add, &s);
		for (int i = 0; i <= 10; i++)
			assert_int_equal(feed_rounded(&l, 60.0 * i, digits), 0);
		assert_int_equal(ledger_finish(&l, 0, 600, NULL), 0);
		if (digits) {
			assert_int_equal(l.ngaps, 0);
			assert_true(l.covered == 600);
			assert_true(fabs(s.capacity - 2400000) <= 100000);
		} else
			assert_true(l.ngaps > 0);
		ledger_free(&l);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(runs_gaps_and_resets),
		cmocka_unit_test(a_daily_rotation_is_crossed),
		cmocka_unit_test(a_record_no_later_counts_once),
		cmocka_unit_test(lacking_samples_are_gaps),
		cmocka_unit_test(rounded_counters_are_one_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

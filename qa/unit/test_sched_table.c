/*
 * The software PURR's table of processes and cgroups: slots reused lowest
 * first, so that once a crowd has gone what remains sits at the bottom and
 * the table halves; an entry of the lower half keeps its slot through it,
 * one of the upper half (claimed late in the crowd, and outliving it) moves
 * to the lowest free slot with its key, values and gen, noting the slot it
 * left (the PMDA's instances hold slot numbers and follow it); an entry
 * rekeyed (a process whose PID was used again) is found by that key only;
 * PCP's unique first word of a name.  Reusing slots allocates nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "alloc_count.h"
#include "sched_table.h"

static void lowest_free_slot_first(void **state)
{
	struct sched_table t = { 0 };
	(void)state;

	for (uint64_t k = 0; k < 10; k++)
		assert_int_equal(sched_table_claim(&t, 100 + k), (int)k);
	long before = allocations;
	sched_table_release(&t, 7);
	sched_table_release(&t, 2);
	sched_table_release(&t, 5);
	assert_int_equal(sched_table_claim(&t, 200), 2);
	assert_int_equal(sched_table_claim(&t, 201), 5);
	assert_int_equal(sched_table_claim(&t, 202), 7);
	assert_int_equal(allocations, before);	/* processes that come and go: nothing */
	assert_int_equal(sched_table_claim(&t, 203), 10);
	sched_table_free(&t);
}

/* 4,000 processes come (cap 4,096), all but two go; the table halves at
 * each shrink while what it holds fits in its lowest quarter: 4096, 2048,
 * 1024, 512, 256, and no further (256 is its least). */
static void shrinks_after_a_crowd(void **state)
{
	struct sched_table t = { 0 };
	int caps[8], n = 0;
	(void)state;

	for (uint64_t k = 0; k < 4000; k++)
		assert_int_equal(sched_table_claim(&t, k + 1), (int)k);
	assert_int_equal(t.cap, 4096);
	for (int s = 0; s < 4000; s++)
		if (s != 3 && s != 60)
			sched_table_release(&t, s);
	while (sched_table_shrink(&t))
		caps[n++] = t.cap;
	assert_int_equal(n, 4);
	assert_int_equal(caps[0], 2048);
	assert_int_equal(caps[3], 256);
	assert_int_equal(sched_table_find(&t, 4), 3);	/* key 4 was slot 3: still */
	assert_int_equal(sched_table_find(&t, 61), 60);
	assert_int_equal(sched_table_find(&t, 5), -1);
	assert_int_equal(t.used, 2);
	assert_int_equal(sched_table_claim(&t, 9999), 0);	/* the lowest free */
	sched_table_free(&t);
}

/* The same crowd, but one of its last (key 4000, slot 3999: a kernel
 * thread that first ran during it) outlives it: it holds the table no
 * longer, and moves down to slot 0, the lowest free, at the first halving;
 * the entries of the lower half stay where they were. */
static void one_that_outlives_a_crowd_moves_down(void **state)
{
	struct sched_table t = { 0 };
	int n = 0;
	(void)state;

	for (uint64_t k = 0; k < 4000; k++)
		sched_table_claim(&t, k + 1);
	uint32_t gen = t.e[3999].gen;
	t.e[3999].clock = 123456789;
	snprintf(t.e[3999].name, sizeof t.e[3999].name, "000031 (khungtaskd)");
	for (int s = 0; s < 3999; s++)
		if (s != 3 && s != 60)
			sched_table_release(&t, s);
	while (sched_table_shrink(&t))
		n++;
	assert_int_equal(n, 4);
	assert_int_equal(t.cap, 256);
	assert_int_equal(sched_table_find(&t, 4000), 0);
	assert_int_equal(t.e[0].gen, gen);
	assert_int_equal(t.e[0].moved_from, 3999);
	assert_int_equal(t.e[0].clock, 123456789);
	assert_string_equal(t.e[0].name, "000031 (khungtaskd)");
	assert_int_equal(sched_table_find(&t, 4), 3);
	assert_int_equal(t.e[3].moved_from, -1);
	assert_int_equal(sched_table_find(&t, 61), 60);
	assert_int_equal(t.used, 3);
	assert_int_equal(sched_table_claim(&t, 9999), 1);	/* the lowest free */
	assert_true(t.e[1].gen != gen && t.e[1].gen != t.e[3].gen);
	sched_table_free(&t);
}

static void rekeyed_entry_is_found_by_its_new_key(void **state)
{
	struct sched_table t = { 0 };
	int slot;
	(void)state;

	slot = sched_table_claim(&t, 1234);
	sched_table_rekey(&t, slot, 1234 | (1ULL << 32));
	assert_int_equal(sched_table_find(&t, 1234), -1);
	assert_int_equal(sched_table_find(&t, 1234 | (1ULL << 32)), slot);
	assert_int_equal(sched_table_claim(&t, 1234), slot + 1);	/* the PID's new holder */
	sched_table_free(&t);
}

static void same_first_word(void **state)
{
	struct sched_table t = { 0 };
	int a, b;
	(void)state;

	a = sched_table_claim(&t, 1);
	b = sched_table_claim(&t, 2);
	snprintf(t.e[a].name, sizeof t.e[a].name, "001234 sleep");
	snprintf(t.e[b].name, sizeof t.e[b].name, "/system.slice/a b.service");
	assert_int_equal(sched_table_same_word(&t, -1, "001234 (sleep)"), a);
	assert_int_equal(sched_table_same_word(&t, a, "001234 (sleep)"), -1);
	assert_int_equal(sched_table_same_word(&t, -1, "001234:1 sleep"), -1);
	assert_int_equal(sched_table_same_word(&t, -1, "/system.slice/a c.service"), b);
	sched_table_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lowest_free_slot_first),
		cmocka_unit_test(shrinks_after_a_crowd),
		cmocka_unit_test(one_that_outlives_a_crowd_moves_down),
		cmocka_unit_test(rekeyed_entry_is_found_by_its_new_key),
		cmocka_unit_test(same_first_word),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

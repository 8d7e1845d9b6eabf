/*
 * PMU format strings with split bit ranges, and the AMD encodings worked by
 * hand from seed 004 and the PPR: the values an event/umask pair must give.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "unit.h"
#include "pmuformat.h"

static uint64_t encode(const char *event_fmt, const char *umask_fmt, uint64_t event, uint64_t umask)
{
	struct pmu_field e, u;
	uint64_t config = 0;

	assert_int_equal(pmu_field_parse(event_fmt, &e), 0);
	assert_int_equal(pmu_field_parse(umask_fmt, &u), 0);
	assert_int_equal(pmu_field_encode(&e, event, &config), 0);
	assert_int_equal(pmu_field_encode(&u, umask, &config), 0);
	return config;
}

/* Seed 004's DF_PERF_CTL values, 0x403807 ... 0x1004038C7, less the enable
 * bit 22: DRAM channel n is event 0x07 + 0x40 n, umask 0x38. */
static void zen2_dram_channels(void **state)
{
	static const uint64_t want[8] = {
		0x3807, 0x3847, 0x3887, 0x38C7, 0x100003807, 0x100003847, 0x100003887, 0x1000038C7
	};
	(void)state;
	for (int n = 0; n < 8; n++)
		assert_true(encode("config:0-7,32-35,59-60\n", "config:8-15\n",
				   0x07 + 0x40 * (uint64_t)n, 0x38) == want[n]);
}

/* PerfMonV2: event[13:8] to 37:32, umask[11:8] to 27:24. */
static void perfmonv2_split_ranges(void **state)
{
	(void)state;
	assert_true(encode("config:0-7,32-37\n", "config:8-15,24-27\n", 0x1F, 0x7FE) == 0x700FE1F);
	/* channel 11 of Genoa: event 0x1F + 0x40 * 11 = 0x2DF */
	assert_true(encode("config:0-7,32-37\n", "config:8-15,24-27\n", 0x2DF, 0x7FF) ==
		    (0xDFull | 0xFFull << 8 | 0x7ull << 24 | 0x2ull << 32));
}

/* L3 accesses and misses: event 0x04, umask 0xFF / 0x01. */
static void l3_events(void **state)
{
	(void)state;
	assert_true(encode("config:0-7\n", "config:8-15\n", 0x04, 0xFF) == 0xFF04);
	assert_true(encode("config:0-7\n", "config:8-15\n", 0x04, 0x01) == 0x0104);
}

static void malformed_formats(void **state)
{
	struct pmu_field f;
	uint64_t config = 0;
	(void)state;

	assert_int_equal(pmu_field_parse("config1:0-3\n", &f), 0);
	assert_int_equal(f.config, 1);
	assert_int_equal(pmu_field_parse("config:46\n", &f), 0);	/* one bit: enallslices */
	assert_int_equal(f.width, 1);
	assert_int_equal(pmu_field_encode(&f, 2, &config), -ERANGE);
	assert_int_equal(pmu_field_parse("config:7-0\n", &f), -EINVAL);
	assert_int_equal(pmu_field_parse("config:0-64\n", &f), -EINVAL);
	assert_int_equal(pmu_field_parse("config:0-7,4-9\n", &f), -EINVAL);	/* overlap */
	assert_int_equal(pmu_field_parse("config:0-7,\n", &f), -EINVAL);
	assert_int_equal(pmu_field_parse("event:0-7\n", &f), -EINVAL);
	assert_int_equal(pmu_field_parse("config:0-7 junk\n", &f), -EINVAL);
	assert_int_equal(pmu_field_parse("", &f), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(zen2_dram_channels),
		cmocka_unit_test(perfmonv2_split_ranges),
		cmocka_unit_test(l3_events),
		cmocka_unit_test(malformed_formats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

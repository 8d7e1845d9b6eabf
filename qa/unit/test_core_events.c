/*
 * smtcpu's core event table (src/sources/core/core_events.c) against perf's pmu-events
 * JSON, copied here by hand with each value's directory (linux,
 * tools/perf/pmu-events/arch/x86/amdzenN/) and event name; libpfm4 is asked
 * where it knows the event, and where it differs from perf that is stated
 * and checked too.  Never against values the code computed.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "alloc_count.h"
#include "core_events.h"
#include "libpfm_arch.h"
#include "pfmlookup.h"
#include "pmuformat.h"

enum role { INSTR, CYCLES, P0, FP, L2_ALL_NO_PF, L2_PF_HIT, L2_PF_L3_HIT, L2_PF_L3_MISS,
	    L2_STAT_MISS, L2_STAT_HIT };

struct perf_event {
	const char *dir;	/* amdzen2 ... */
	const char *name;	/* perf's EventName */
	enum role role;
	uint16_t code;
	uint8_t umask;
};

/* As perf lists them: core.json / pipeline.json (ex_ret_instr),
 * core.json / memory.json / load-store.json (ls_not_halted_*),
 * floating-point.json (fp_ret_sse_avx_ops.all), cache.json (l2_*). */
static const struct perf_event perf[] = {
	{ "amdzen2", "ex_ret_instr", INSTR, 0xc0, 0 },
	{ "amdzen2", "ls_not_halted_cyc", CYCLES, 0x76, 0 },
	{ "amdzen2", "fp_ret_sse_avx_ops.all", FP, 0x03, 0xff },
	{ "amdzen2", "l2_request_g1.all_no_prefetch", L2_ALL_NO_PF, 0x60, 0xf9 },
	{ "amdzen2", "l2_pf_hit_l2", L2_PF_HIT, 0x70, 0xff },
	{ "amdzen2", "l2_pf_miss_l2_hit_l3", L2_PF_L3_HIT, 0x71, 0xff },
	{ "amdzen2", "l2_pf_miss_l2_l3", L2_PF_L3_MISS, 0x72, 0xff },
	{ "amdzen2", "l2_cache_req_stat.ic_dc_miss_in_l2", L2_STAT_MISS, 0x64, 0x09 },
	{ "amdzen2", "l2_cache_req_stat.ic_dc_hit_in_l2", L2_STAT_HIT, 0x64, 0xf6 },
	{ "amdzen3", "ex_ret_instr", INSTR, 0xc0, 0 },
	{ "amdzen3", "ls_not_halted_cyc", CYCLES, 0x76, 0 },
	{ "amdzen3", "fp_ret_sse_avx_ops.all", FP, 0x03, 0xff },
	{ "amdzen3", "l2_request_g1.all_no_prefetch", L2_ALL_NO_PF, 0x60, 0xf9 },
	{ "amdzen3", "l2_pf_hit_l2", L2_PF_HIT, 0x70, 0xff },
	{ "amdzen3", "l2_pf_miss_l2_hit_l3", L2_PF_L3_HIT, 0x71, 0xff },
	{ "amdzen3", "l2_pf_miss_l2_l3", L2_PF_L3_MISS, 0x72, 0xff },
	{ "amdzen3", "l2_cache_req_stat.ic_dc_miss_in_l2", L2_STAT_MISS, 0x64, 0x09 },
	{ "amdzen3", "l2_cache_req_stat.ic_dc_hit_in_l2", L2_STAT_HIT, 0x64, 0xf6 },
	{ "amdzen4", "ex_ret_instr", INSTR, 0xc0, 0 },
	{ "amdzen4", "ls_not_halted_cyc", CYCLES, 0x76, 0 },
	{ "amdzen4", "ls_not_halted_p0_cyc.p0_freq_cyc", P0, 0x120, 0x01 },
	{ "amdzen4", "fp_ret_sse_avx_ops.all", FP, 0x03, 0x1f },
	{ "amdzen4", "l2_request_g1.all_no_prefetch", L2_ALL_NO_PF, 0x60, 0xf9 },
	{ "amdzen4", "l2_pf_hit_l2.all", L2_PF_HIT, 0x70, 0xff },
	{ "amdzen4", "l2_pf_miss_l2_hit_l3.all", L2_PF_L3_HIT, 0x71, 0xff },
	{ "amdzen4", "l2_pf_miss_l2_l3.all", L2_PF_L3_MISS, 0x72, 0xff },
	{ "amdzen4", "l2_cache_req_stat.ic_dc_miss_in_l2", L2_STAT_MISS, 0x64, 0x09 },
	{ "amdzen4", "l2_cache_req_stat.ic_dc_hit_in_l2", L2_STAT_HIT, 0x64, 0xf6 },
	{ "amdzen5", "ex_ret_instr", INSTR, 0xc0, 0 },
	{ "amdzen5", "ls_not_halted_cyc", CYCLES, 0x76, 0 },
	{ "amdzen5", "ls_not_halted_p0_cyc.p0_freq_cyc", P0, 0x120, 0x01 },
	{ "amdzen5", "fp_ret_sse_avx_ops.all", FP, 0x03, 0x0f },
	{ "amdzen5", "l2_request_g1.all_no_prefetch", L2_ALL_NO_PF, 0x60, 0xf1 },
	{ "amdzen5", "l2_pf_hit_l2.all", L2_PF_HIT, 0x70, 0xff },
	{ "amdzen5", "l2_pf_miss_l2_hit_l3.all", L2_PF_L3_HIT, 0x71, 0xff },
	{ "amdzen5", "l2_pf_miss_l2_l3.all", L2_PF_L3_MISS, 0x72, 0xff },
	{ "amdzen5", "l2_cache_req_stat.ic_dc_miss_in_l2", L2_STAT_MISS, 0x64, 0x09 },
	{ "amdzen5", "l2_cache_req_stat.ic_dc_hit_in_l2", L2_STAT_HIT, 0x64, 0xf6 },
};

static const struct core_family *gen(const char *dir)
{
	int n;
	const struct core_family *const *all = core_families(&n);

	for (int i = 0; i < n; i++)
		if (strcmp(all[i]->name + 3, dir + 6) == 0)	/* "Zen2" ~ "amdzen2" */
			return all[i];
	return NULL;
}

static int same(struct core_event a, struct core_event b)
{
	return a.code == b.code && a.umask == b.umask;
}

static int has(const struct core_event *terms, int n, uint16_t code, uint8_t umask)
{
	for (int i = 0; i < n; i++)
		if (terms[i].code == code && terms[i].umask == umask)
			return 1;
	return 0;
}

static void core_events_as_perf_lists_them(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof perf / sizeof perf[0]; i++) {
		const struct perf_event *e = &perf[i];
		const struct core_family *f = gen(e->dir);
		struct core_event want = { e->code, e->umask };

		assert_non_null(f);
		switch (e->role) {
		case INSTR: assert_true(same(f->instructions, want)); break;
		case CYCLES: assert_true(same(f->cycles, want)); break;
		case P0: assert_true(same(f->p0_cycles, want)); break;
		case FP: assert_true(same(f->fp_ops, want)); break;
		case L2_ALL_NO_PF:
			assert_true(has(f->l2_access, f->nl2_access, e->code, e->umask));
			break;
		case L2_PF_HIT:		/* accesses and hits */
			assert_true(has(f->l2_access, f->nl2_access, e->code, e->umask));
			assert_true(has(f->l2_hit, f->nl2_hit, e->code, e->umask));
			break;
		case L2_PF_L3_HIT:	/* accesses and misses */
		case L2_PF_L3_MISS:
			assert_true(has(f->l2_access, f->nl2_access, e->code, e->umask));
			assert_true(has(f->l2_miss, f->nl2_miss, e->code, e->umask));
			break;
		case L2_STAT_MISS: assert_true(has(f->l2_miss, f->nl2_miss, e->code, e->umask)); break;
		case L2_STAT_HIT: assert_true(has(f->l2_hit, f->nl2_hit, e->code, e->umask)); break;
		}
	}
	/* perf's recommended.json formulas have 4, 3 and 2 terms, no more */
	int n;
	const struct core_family *const *all = core_families(&n);
	assert_int_equal(n, 4);
	for (int i = 0; i < n; i++) {
		assert_int_equal(all[i]->nl2_access, 4);
		assert_int_equal(all[i]->nl2_miss, 3);
		assert_int_equal(all[i]->nl2_hit, 2);
		assert_int_equal(all[i]->counters, 6);	/* PerfCtr0-5 (arch/x86/events/amd/core.c) */
	}
	/* Zen2..Zen4 have no P0-clock cycles event: MPERF stands in */
	assert_int_equal(gen("amdzen2")->p0_cycles.code, 0);
	assert_int_equal(gen("amdzen3")->p0_cycles.code, 0);
}

/* perf's mapfile.csv: AuthenticAMD-23-([12][0-9A-F]|[0-9A-F]) amdzen1,
 * AuthenticAMD-23-* amdzen2, AuthenticAMD-25-([245][0-9A-F]|[0-9A-F]) amdzen3,
 * AuthenticAMD-25-* amdzen4, AuthenticAMD-26-* amdzen5. */
static void generations_as_perf_maps_them(void **state)
{
	static const struct { int family, model; const char *dir; } cases[] = {
		{ 23, 0x01, NULL }, { 23, 0x18, NULL }, { 23, 0x2f, NULL },
		{ 23, 0x31, "amdzen2" }, { 23, 0x71, "amdzen2" }, { 23, 0xa0, "amdzen2" },
		{ 25, 0x01, "amdzen3" }, { 25, 0x21, "amdzen3" }, { 25, 0x50, "amdzen3" },
		{ 25, 0x11, "amdzen4" }, { 25, 0x30, "amdzen4" }, { 25, 0x61, "amdzen4" },
		{ 25, 0xa0, "amdzen4" }, { 26, 0x02, "amdzen5" }, { 26, 0x11, "amdzen5" },
		{ 6, 0x55, NULL }, { 24, 0x01, NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct core_family *f = core_family_find(cases[i].family, cases[i].model);
		if (!cases[i].dir)
			assert_null(f);
		else
			assert_ptr_equal(f, gen(cases[i].dir));
	}
}

/* libpfm4's tables for the same PMUs.  They agree with perf but for
 * RETIRED_SSE_AVX_FLOPS:ANY on Zen2/Zen3, which libpfm4 gives as 0x0f: its
 * four umasks there are bits 0-3 only, the single-precision half of perf's
 * 0xff (whose sp_ and dp_ events split it 0x0f / 0xf0).  A libpfm4 without
 * a Zen5 table (4.13 has none) answers -ENOENT. */
static void core_events_as_libpfm_lists_them(void **state)
{
	static const struct { const char *event, *umask; enum role role; } names[] = {
		{ "RETIRED_INSTRUCTIONS", NULL, INSTR },
		{ "CYCLES_NOT_IN_HALT", NULL, CYCLES },
		{ "P0_FREQ_CYCLES_NOT_IN_HALT", "P0_FREQ_CYCLES", P0 },
		{ "RETIRED_SSE_AVX_FLOPS", "ANY", FP },
		{ "REQUESTS_TO_L2_GROUP1", NULL, L2_ALL_NO_PF },
		{ "L2_PREFETCH_HIT_L2", NULL, L2_PF_HIT },
		{ "CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS", NULL, L2_STAT_MISS },
	};
	int n, asked = 0;
	const struct core_family *const *all = core_families(&n);

	(void)state;
	skip_unless_libpfm_has_x86();
	for (int i = 0; i < n; i++) {
		const struct core_family *f = all[i];
		for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
			uint64_t code, umask;
			int sts = pfm_lookup(f->pfm_pmu, names[k].event, names[k].umask, &code, &umask);
			struct core_event mine;

			switch (names[k].role) {
			case INSTR: mine = f->instructions; break;
			case CYCLES: mine = f->cycles; break;
			case P0: mine = f->p0_cycles; break;
			case FP: mine = f->fp_ops; break;
			case L2_ALL_NO_PF: mine = f->l2_access[0]; break;
			case L2_PF_HIT: mine = f->l2_hit[1]; break;
			default: mine = f->l2_miss[0]; break;
			}
			if (sts == -ENOENT) {
				/* absent where the generation has no such event, or
				 * libpfm4 has no table for it */
				assert_true(mine.code == 0 || strcmp(f->name, "Zen5") == 0);
				continue;
			}
			assert_int_equal(sts, 0);
			asked++;
			assert_int_equal(code, mine.code);
			if (names[k].role == FP && (strcmp(f->name, "Zen2") == 0 ||
						    strcmp(f->name, "Zen3") == 0)) {
				assert_int_equal(umask, 0x0f);
				assert_int_equal(mine.umask & umask, umask);
			} else if (names[k].umask) {
				assert_int_equal(umask, mine.umask);
			}
		}
	}
	assert_true(asked >= 19);	/* Zen2 6, Zen3 6, Zen4 7 at least */
}

/* The AMD core PMU's format, as arch/x86/events/amd/core.c declares it:
 * PMU_FORMAT_ATTR(event, "config:0-7,32-35"), PMU_FORMAT_ATTR(umask, "config:8-15"). */
static void config_as_the_kernel_formats_it(void **state)
{
	struct pmu_field event, umask;
	struct core_event cases[] = { { 0xc0, 0 }, { 0x120, 0x01 }, { 0x03, 0xff }, { 0x64, 0xf6 } };

	(void)state;
	assert_int_equal(pmu_field_parse("config:0-7,32-35", &event), 0);
	assert_int_equal(pmu_field_parse("config:8-15", &umask), 0);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint64_t config = 0;
		assert_int_equal(pmu_field_encode(&event, cases[i].code, &config), 0);
		assert_int_equal(pmu_field_encode(&umask, cases[i].umask, &config), 0);
		assert_int_equal(core_amd_config(cases[i]), config);
	}
	/* by hand: 0x120 umask 1 is 0x1_0000_0120 */
	assert_int_equal(core_amd_config(cases[1]), 0x100000120ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(core_events_as_perf_lists_them),
		cmocka_unit_test(generations_as_perf_maps_them),
		cmocka_unit_test(core_events_as_libpfm_lists_them),
		cmocka_unit_test(config_as_the_kernel_formats_it),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

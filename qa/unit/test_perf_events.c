/*
 * smtcpu's AMD event tables against perf's pmu-events JSON, the list the
 * kernel's own tools use, copied here by hand with each value's file
 * (linux, tools/perf/pmu-events/arch/x86/...).  The expected values are
 * perf's, never computed by the code under test; libpfm4 is asked too where
 * it knows the event.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "alloc_count.h"
#include "amd_events.h"
#include "intel_smt.h"
#include "libpfm_arch.h"
#include "pfmlookup.h"

/* One DRAM event of one channel: EventCode, UMask, what it counts. */
struct perf_dram {
	int channel;
	uint64_t code, umask;
	enum amd_dram_kind kind;
};

/* amdzen2/data-fabric.json and amdzen3/data-fabric.json (identical):
 * dram_channel_data_controller_0..7, "Requests with Data (64B)". */
static const struct perf_dram zen2_zen3[] = {
	{ 0, 0x07, 0x38, DRAM_READ_WRITE }, { 1, 0x47, 0x38, DRAM_READ_WRITE },
	{ 2, 0x87, 0x38, DRAM_READ_WRITE }, { 3, 0xc7, 0x38, DRAM_READ_WRITE },
	{ 4, 0x107, 0x38, DRAM_READ_WRITE }, { 5, 0x147, 0x38, DRAM_READ_WRITE },
	{ 6, 0x187, 0x38, DRAM_READ_WRITE }, { 7, 0x1c7, 0x38, DRAM_READ_WRITE },
};

/* amdzen4/data-fabric.json: {local,remote}_processor_{read,write}_data_beats_cs0..11,
 * "(64 bytes)"; channel 0's codes, and channel 11's. */
static const struct perf_dram zen4[] = {
	{ 0, 0x1f, 0x7fe, DRAM_READ }, { 0, 0x1f, 0xbfe, DRAM_READ },
	{ 0, 0x1f, 0x7ff, DRAM_WRITE }, { 0, 0x1f, 0xbff, DRAM_WRITE },
	{ 5, 0x15f, 0x7fe, DRAM_READ }, { 11, 0x2df, 0x7fe, DRAM_READ },
	{ 11, 0x2df, 0xbfe, DRAM_READ }, { 11, 0x2df, 0x7ff, DRAM_WRITE },
	{ 11, 0x2df, 0xbff, DRAM_WRITE },
};

/* amdzen5/data-fabric.json: local_or_remote_socket_read_data_beats_dram_0..11
 * (UMask 0xffe) and local_or_remote_socket_write_data_beats_dram_0..11
 * (0xfff), "(64 bytes)". */
static const struct perf_dram zen5[] = {
	{ 0, 0x1f, 0xffe, DRAM_READ }, { 0, 0x1f, 0xfff, DRAM_WRITE },
	{ 6, 0x19f, 0xffe, DRAM_READ }, { 11, 0x2df, 0xffe, DRAM_READ },
	{ 11, 0x2df, 0xfff, DRAM_WRITE },
};

/* Every perf event is one of the family's events on its channel. */
static void check_family(const struct amd_family *f, int channels, const struct perf_dram *p,
			 size_t n)
{
	int nread = 0, nwrite = 0;

	assert_non_null(f);
	assert_int_equal(f->channels, channels);
	for (size_t i = 0; i < n; i++) {
		int found = 0;

		assert_true(amd_df_event(f, p[i].channel) == p[i].code);
		for (int k = 0; k < f->df_nevents; k++)
			found |= f->df[k].umask == p[i].umask && f->df[k].kind == p[i].kind;
		assert_true(found);
	}
	/* and the family counts nothing perf does not list */
	for (int k = 0; k < f->df_nevents; k++) {
		int listed = 0;

		for (size_t i = 0; i < n; i++)
			listed |= f->df[k].umask == p[i].umask && f->df[k].kind == p[i].kind;
		assert_true(listed);
		nread += f->df[k].kind == DRAM_READ;
		nwrite += f->df[k].kind == DRAM_WRITE;
	}
	assert_int_equal(nread, nwrite);	/* reads and writes, or neither */
	/* "Requests with Data (64B)", "Read data beats (64 bytes)" */
	assert_int_equal(AMD_BYTES_PER_EVENT, 64);
}

static void dram_events_as_perf_lists_them(void **state)
{
	(void)state;
	check_family(amd_family_find(0x17, 0x31), 8, zen2_zen3, sizeof zen2_zen3 / sizeof zen2_zen3[0]);
	check_family(amd_family_find(0x19, 0x01), 8, zen2_zen3, sizeof zen2_zen3 / sizeof zen2_zen3[0]);
	check_family(amd_family_find(0x19, 0x11), 12, zen4, sizeof zen4 / sizeof zen4[0]);
	check_family(amd_family_find(0x19, 0xa0), 12, zen4, sizeof zen4 / sizeof zen4[0]);
	check_family(amd_family_find(0x1a, 0x02), 12, zen5, sizeof zen5 / sizeof zen5[0]);
}

/* amdzen4/memory-controller.json and amdzen5/memory-controller.json:
 * umc_cas_cmd.rd and .wr are EventCode 0x0a with RdWrMask 0x1 and 0x2;
 * recommended.json's umc_mem_read_bandwidth is umc_cas_cmd.rd * 64 bytes. */
static void umc_events_as_perf_lists_them(void **state)
{
	(void)state;
	assert_int_equal(AMD_UMC_CAS_CMD, 0x0a);
	assert_int_equal(AMD_BYTES_PER_EVENT, 64);
	assert_true(amd_family_find(0x19, 0x11)->has_umc);
	assert_true(amd_family_find(0x1a, 0x02)->has_umc);
	assert_false(amd_family_find(0x17, 0x31)->has_umc);	/* no UMC JSON before Zen4 */
}

/* Zen4 and Zen5 memory-controller.json: umc_data_slot_clks.all is EventCode
 * 0x14 and umc_mem_clk 0x00, neither with a RdWrMask; recommended.json's
 * umc_data_bus_utilization is d_ratio(umc_data_slot_clks.all / 2, umc_mem_clk). */
static void umc_data_bus_as_perf_lists_it(void **state)
{
	(void)state;
	assert_int_equal(AMD_UMC_DATA_SLOT_CLKS, 0x14);
	assert_int_equal(AMD_UMC_MEM_CLK, 0x00);
	assert_int_equal(AMD_UMC_SLOTS_PER_CLK, 2);
	assert_int_equal(AMD_UMC_RDWR_READ, 0x1);
	assert_int_equal(AMD_UMC_RDWR_WRITE, 0x2);
}

/* One family's xGMI link events as perf lists them. */
struct perf_links {
	int nlinks;
	uint64_t code[8];		/* EventCode of link 0, 1, ... */
	uint64_t out_umask, in_umask;	/* 0: no inbound event */
	int bytes;
};

/* amdzen3/data-fabric.json, and amdzen2/data-fabric.json as the patch "perf
 * vendor events amd: Add recommended events" (2020-09-01) created it:
 * remote_outbound_data_controller_0..3, "Remote Link Controller Outbound
 * Packet Types: Data (32B)". */
static const struct perf_links zen2_zen3_links = {
	4, { 0x7c7, 0x807, 0x847, 0x887 }, 0x02, 0, 32
};

/* amdzen4/data-fabric.json, from "perf vendor events amd: Add Zen 4 uncore
 * events" (2022-12-07): local_socket_outbound_data_beats_link0..7, "Data
 * beats (64 bytes) for local socket outbound data from inter-socket xGMI
 * link N"; no inbound events. */
static const struct perf_links zen4_links = {
	8, { 0xb5f, 0xb9f, 0xbdf, 0xc1f, 0xc5f, 0xc9f, 0xcdf, 0xd1f }, 0xf3e, 0, 64
};

/* amdzen5/data-fabric.json: local_socket_outbound_data_beats_link_0..5
 * (UMask 0xf3e) and local_socket_inbound_data_beats_link_0..5 (0xf3f),
 * "Outbound/Inbound data beats (64 bytes) ... over Cross-socket Link N". */
static const struct perf_links zen5_links = {
	6, { 0xd5f, 0xd9f, 0xddf, 0xe1f, 0xe5f, 0xe9f }, 0xf3e, 0xf3f, 64
};

static void check_links(const struct amd_family *f, const struct perf_links *p)
{
	assert_non_null(f);
	assert_int_equal(f->nlinks, p->nlinks);
	assert_true(f->nlinks <= AMD_MAX_LINKS);
	for (int n = 0; n < p->nlinks; n++)
		assert_true(amd_link_event(f, n) == p->code[n]);
	assert_true(f->link_out_umask == p->out_umask);
	assert_true(f->link_in_umask == p->in_umask);
	assert_int_equal(f->link_bytes, p->bytes);
}

static void link_events_as_perf_lists_them(void **state)
{
	(void)state;
	check_links(amd_family_find(0x17, 0x31), &zen2_zen3_links);
	check_links(amd_family_find(0x19, 0x01), &zen2_zen3_links);
	check_links(amd_family_find(0x19, 0x11), &zen4_links);
	check_links(amd_family_find(0x19, 0xa0), &zen4_links);
	check_links(amd_family_find(0x1a, 0x02), &zen5_links);
}

/* L3: amdzen2/3 recommended.json l3_cache_accesses 0x04/0xff and l3_misses
 * 0x04/0x01; amdzen4/cache.json and amdzen5/l3-cache.json
 * l3_lookup_state.all_coherent_accesses_to_l3 0x04/0xff and .l3_miss
 * 0x04/0x01: one event code, two umasks, on every generation. */
static void l3_events_as_perf_lists_them(void **state)
{
	uint64_t event, umask;
	(void)state;
	skip_unless_libpfm_has_x86();

	assert_int_equal(AMD_L3_EVENT, 0x04);
	assert_int_equal(AMD_L3_UMASK_ACCESSES, 0xff);
	assert_int_equal(AMD_L3_UMASK_MISSES, 0x01);
	amd_l3_access_codes(&event, &umask);
	assert_true(event == 0x04 && umask == 0xff);
	/* libpfm4 agrees: lib/events/amd64_events_fam19h_zen3_l3.h UNC_L3_REQUESTS
	 * ALL.  (Its Zen5 table, amd64_events_fam1ah_zen5_l3.h, whose header
	 * says "Zen3" by mistake, came after libpfm4 4.13, Debian 12's; it has
	 * no Zen4 L3 table, nor any for the Data Fabric or UMC.) */
	assert_int_equal(pfm_lookup("amd64_fam19h_zen3_l3", "UNC_L3_REQUESTS", "ALL", &event,
				    &umask), 0);
	assert_true(event == 0x04 && umask == 0xff);
}

/* Intel's overlap events against libpfm4's tables (lib/events/
 * intel_icl_events.h and intel_snb_events.h, CPU_CLK_UNHALTED), and the
 * models against the kernel's arch/x86/include/asm/intel-family.h:
 * INTEL_SKYLAKE_X 0x55, INTEL_KABYLAKE 0x9E, INTEL_ICELAKE_X 0x6A,
 * INTEL_SAPPHIRERAPIDS_X 0x8F; INTEL_ALDERLAKE_N 0xBE has no SMT. */
static void intel_overlap_events_as_libpfm_lists_them(void **state)
{
	static const struct {
		const char *pmu, *umask;
		enum intel_smt_kind kind;
		int one;	/* 1: the ONE_THREAD_ACTIVE code, 0: the REF_* */
	} cases[] = {
		{ "icl", "ONE_THREAD_ACTIVE", INTEL_SMT_DISTRIBUTED, 1 },
		{ "icl", "REF_DISTRIBUTED", INTEL_SMT_DISTRIBUTED, 0 },
		{ "snb", "ONE_THREAD_ACTIVE", INTEL_SMT_XCLK, 1 },
		{ "snb", "REF_XCLK", INTEL_SMT_XCLK, 0 },
	};
	uint64_t event, umask;
	(void)state;
	skip_unless_libpfm_has_x86();

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct intel_smt_events *e = intel_smt_events(cases[i].kind);

		assert_int_equal(pfm_lookup(cases[i].pmu, "CPU_CLK_UNHALTED", cases[i].umask, &event,
					    &umask), 0);
		assert_int_equal(e->event, event);
		assert_int_equal(cases[i].one ? e->one_umask : e->ref_umask, umask);
	}
	assert_int_equal(intel_smt_kind(6, 0x55), INTEL_SMT_XCLK);
	assert_int_equal(intel_smt_kind(6, 0x9E), INTEL_SMT_XCLK);
	assert_int_equal(intel_smt_kind(6, 0x6A), INTEL_SMT_DISTRIBUTED);
	assert_int_equal(intel_smt_kind(6, 0x8F), INTEL_SMT_DISTRIBUTED);
	assert_int_equal(intel_smt_kind(6, 0xBE), INTEL_SMT_NONE);
	assert_int_equal(intel_smt_kind(25, 0x6A), INTEL_SMT_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dram_events_as_perf_lists_them),
		cmocka_unit_test(umc_events_as_perf_lists_them),
		cmocka_unit_test(umc_data_bus_as_perf_lists_it),
		cmocka_unit_test(link_events_as_perf_lists_them),
		cmocka_unit_test(l3_events_as_perf_lists_them),
		cmocka_unit_test(intel_overlap_events_as_libpfm_lists_them),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

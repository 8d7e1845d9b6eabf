/*
 * What to count on each EPYC generation: the DRAM channel and xGMI link
 * events of the Data Fabric, the UMC events, the L3 events, the counters
 * each PMU has, and how to recognise the generation from /proc/cpuinfo.
 * Data, in one place; the configuration file can override counters and
 * channels.  qa/unit/test_perf_events.c checks every value against perf's
 * pmu-events JSON.
 */
#ifndef SMTCPU_AMD_EVENTS_H
#define SMTCPU_AMD_EVENTS_H

#include <stdint.h>

#define AMD_MAX_CHANNELS 12
#define AMD_MAX_LINKS 8			/* xGMI links per socket: Zen4 has 8 */
#define AMD_DRAM_EVENTS_MAX 4		/* per channel */
#define AMD_BYTES_PER_EVENT 64		/* one cache line per DRAM request */

enum amd_dram_kind { DRAM_READ_WRITE, DRAM_READ, DRAM_WRITE };

struct amd_dram_event {
	uint64_t umask;
	enum amd_dram_kind kind;
};

struct amd_family {
	const char *name;		/* "Zen2 Rome", ... */
	int family, model_lo, model_hi;
	int channels;			/* DRAM channels per socket */
	int df_counters;
	/* Data Fabric DRAM events: event base + 0x40 per channel, each umask
	 * below; read and write apart unless DRAM_READ_WRITE. */
	uint64_t df_event_base;
	int df_nevents;
	struct amd_dram_event df[AMD_DRAM_EVENTS_MAX];
	int has_umc;			/* amd_umc_N PMUs may exist (PerfMonV2) */
	/* xGMI links: event base + 0x40 per link, outbound umask, and
	 * inbound where the family has it (0 if not); bytes per event. */
	int nlinks;
	uint64_t link_event_base, link_out_umask, link_in_umask;
	int link_bytes;
	double peak_gbs;		/* full population at the rated speed, per socket */
};

/* The family /proc/cpuinfo names, or NULL for a processor without a table. */
const struct amd_family *amd_family_find(int family, int model);

/* The DF event code of channel ch. */
uint64_t amd_df_event(const struct amd_family *f, int ch);

/* The DF event code of link n. */
uint64_t amd_link_event(const struct amd_family *f, int n);

/* UMC, per memory controller: cas_cmd with rdwrmask 1 (reads) and 2
 * (writes), 64 bytes each; and the data bus, busy for data_slot_clks.all
 * (no rdwrmask) out of AMD_UMC_SLOTS_PER_CLK per mem_clk cycle (perf's
 * umc_data_bus_utilization).  4 counters each. */
#define AMD_UMC_CAS_CMD 0x0a
#define AMD_UMC_RDWR_READ 1
#define AMD_UMC_RDWR_WRITE 2
#define AMD_UMC_DATA_SLOT_CLKS 0x14
#define AMD_UMC_MEM_CLK 0x00
#define AMD_UMC_SLOTS_PER_CLK 2
#define AMD_UMC_COUNTERS 4

/* L3, Zen2 to Zen5: event 0x04, umask 0xff every request, 0x01 the misses.
 * Only event and umask are given: the kernel fills in the slice and thread
 * masks for the family it runs on. */
#define AMD_L3_EVENT 0x04
#define AMD_L3_UMASK_ACCESSES 0xff
#define AMD_L3_UMASK_MISSES 0x01
#define AMD_L3_COUNTERS 6

/* The L3 access event's code and umask from libpfm4 where it knows them
 * (the Zen3 L3 PMU), else from the table above. */
void amd_l3_access_codes(uint64_t *event, uint64_t *umask);

#endif

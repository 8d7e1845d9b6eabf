/*
 * amd.*: EPYC's memory subsystem from its uncore counters, DRAM and xGMI
 * traffic on the Data Fabric (per socket, channel and link) and L3 per
 * complex.  Counts are estimates, to the nearest byte or event.
 */
#include <stdio.h>
#include <syslog.h>

#include "shared.h"
#include "source_amd.h"

enum {	/* CLUSTER_DF */
	AMD_DF_DRAM_BW = 0,
	AMD_DF_DRAM_READ = 1,
	AMD_DF_DRAM_WRITE = 2,
	AMD_DF_PEAK_BW = 3,
	AMD_DF_CHANNEL_BYTES = 4,
	AMD_DF_CHANNEL_READ = 5,
	AMD_DF_CHANNEL_WRITE = 6,
	AMD_DF_CHANNEL_DUTY_CYCLE = 7,
	AMD_DF_PEAK_SOURCE = 8,
	AMD_DF_DRAM_UTIL = 9,
	AMD_DF_DRAM_UTIL_DUTY_CYCLE = 10,
	AMD_DF_XGMI_OUTBOUND = 11,
	AMD_DF_XGMI_INBOUND = 12,
	AMD_DF_XGMI_LINK_OUTBOUND = 13,
	AMD_DF_XGMI_LINK_INBOUND = 14,
	AMD_DF_XGMI_LINK_DUTY_CYCLE = 15,
	AMD_DF_ALL_DRAM_BW = 16,
	AMD_DF_ALL_PEAK_BW = 17,
};

enum {	/* CLUSTER_L3 */
	AMD_L3_ACCESSES = 0,
	AMD_L3_MISSES = 1,
	AMD_L3_MISS_RATIO = 2,
	AMD_L3_COUNTED = 3,
};

static const struct metric df_metrics[] = {
	{ "amd.df.dram_bw", AMD_DF_DRAM_BW, PM_TYPE_U64, SOCKET_INDOM, PM_SEM_COUNTER, BYTE_UNITS,
	  "DRAM bytes read and written per socket",
	  "Bytes moved between the socket's DRAM channels and the fabric: every\n"
	  "channel's requests times 64 bytes, summed.  A counter: rate conversion\n"
	  "gives bytes per second.  Channels that share counters are multiplexed\n"
	  "and their counts scaled by time enabled over time running (see\n"
	  "amd.df.channel.duty_cycle).  No value until every channel has counted." },
	{ "amd.df.dram_read", AMD_DF_DRAM_READ, PM_TYPE_U64, SOCKET_INDOM, PM_SEM_COUNTER, BYTE_UNITS,
	  "DRAM bytes read per socket",
	  "As amd.df.dram_bw, reads only.  Only where the family counts reads and\n"
	  "writes apart (Zen4 and Zen5, DF or UMC); Zen2 and Zen3 have no value." },
	{ "amd.df.dram_write", AMD_DF_DRAM_WRITE, PM_TYPE_U64, SOCKET_INDOM, PM_SEM_COUNTER, BYTE_UNITS,
	  "DRAM bytes written per socket",
	  "As amd.df.dram_bw, writes only.  Only where the family counts reads and\n"
	  "writes apart (Zen4 and Zen5, DF or UMC); Zen2 and Zen3 have no value." },
	{ "amd.df.peak_bw", AMD_DF_PEAK_BW, PM_TYPE_DOUBLE, SOCKET_INDOM, PM_SEM_DISCRETE, BYTE_RATE_UNITS,
	  "Peak DRAM bandwidth per socket",
	  "Populated channels x MT/s x 8 bytes, in bytes per second: dram_peak in\n"
	  "the configuration file, else the SMBIOS memory devices (slots of one\n"
	  "channel counted once), else no value.  rate(amd.df.dram_bw) /\n"
	  "amd.df.peak_bw is the share of peak.  amd.df.peak_source says which." },
	{ "amd.df.channel.bytes", AMD_DF_CHANNEL_BYTES, PM_TYPE_U64, CHANNEL_INDOM, PM_SEM_COUNTER, BYTE_UNITS,
	  "DRAM bytes per channel",
	  "One channel's requests times 64 bytes, reads and writes together, as\n"
	  "estimated from the share of time its events were on a counter.\n"
	  "Instances are socketS/chN: on the Data Fabric N is the channel; with\n"
	  "UMC PMUs, N counts the socket's memory controllers in the order of\n"
	  "their amd_umc_N PMUs (the kernel numbers them across the sockets:\n"
	  "socket 0's first), so socket1/ch0 of a 2-socket Genoa is amd_umc_12." },
	{ "amd.df.channel.read", AMD_DF_CHANNEL_READ, PM_TYPE_U64, CHANNEL_INDOM, PM_SEM_COUNTER, BYTE_UNITS,
	  "DRAM bytes read per channel",
	  "Only where the family counts reads and writes apart (Zen4, Zen5)." },
	{ "amd.df.channel.write", AMD_DF_CHANNEL_WRITE, PM_TYPE_U64, CHANNEL_INDOM, PM_SEM_COUNTER, BYTE_UNITS,
	  "DRAM bytes written per channel",
	  "Only where the family counts reads and writes apart (Zen4, Zen5)." },
	{ "amd.df.channel.duty_cycle", AMD_DF_CHANNEL_DUTY_CYCLE, PM_TYPE_DOUBLE, CHANNEL_INDOM, PM_SEM_INSTANT, NO_UNITS,
	  "Share of the last interval this channel was counted",
	  "Time running over time enabled of the channel's counter group over the\n"
	  "last sampling interval: 1 when its events had counters all the time,\n"
	  "1/G when G groups take turns.  0 when the group did not run at all:\n"
	  "that interval is carried into the next one, and until then the channel's\n"
	  "bytes (and its socket's) have no value rather than a flat one." },
	{ "amd.df.peak_source", AMD_DF_PEAK_SOURCE, PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_DISCRETE, NO_UNITS,
	  "Where amd.df.peak_bw comes from",
	  "\"configuration file (...)\", \"SMBIOS: N modules in C channels at S\n"
	  "MT/s\", or \"none: ...\" with the reason there is no peak." },
	{ "amd.df.dram_util", AMD_DF_DRAM_UTIL, PM_TYPE_DOUBLE, SOCKET_INDOM, PM_SEM_INSTANT, NO_UNITS,
	  "DRAM data bus utilisation per socket, last interval",
	  "The fraction (0 to 1) of the data bus clock slots the socket's memory\n"
	  "controllers used over the last sampling interval, as the controllers\n"
	  "measure it: the sum over its amd_umc_N PMUs of umc_data_slot_clks.all\n"
	  "(event 0x14) / 2, over the sum of umc_mem_clk (event 0x00), perf's\n"
	  "umc_data_bus_utilization.  A measured figure beside the share of\n"
	  "amd.df.peak_bw, needing no SMBIOS.  Only where UMC PMUs exist (Zen4 and\n"
	  "Zen5 kernels with amd_umc); no value while any controller of the socket\n"
	  "had no window or a saturated counter." },
	{ "amd.df.dram_util_duty_cycle", AMD_DF_DRAM_UTIL_DUTY_CYCLE, PM_TYPE_DOUBLE, SOCKET_INDOM, PM_SEM_INSTANT, NO_UNITS,
	  "Share of the last interval the data bus was counted",
	  "The mean over the socket's controllers of time running over time\n"
	  "enabled of the group counting their data bus: 1 unless the configuration\n"
	  "gives amd_umc fewer than 4 counters, when reads and writes take turns\n"
	  "with the data bus." },
	{ "amd.df.xgmi.outbound", AMD_DF_XGMI_OUTBOUND, PM_TYPE_U64, SOCKET_INDOM, PM_SEM_COUNTER, BYTE_UNITS,
	  "Cross-socket (xGMI) bytes sent per socket",
	  "Bytes the socket sent to the other sockets over its inter-socket links,\n"
	  "the sum of amd.df.xgmi.link.outbound: seed 004's \"Outbound data bytes\n"
	  "for all Remote Links\".  Zen2 and Zen3 count 32 bytes an event\n"
	  "(remote_outbound_data_controller_0..3, 4 links), Zen4 64 bytes\n"
	  "(local_socket_outbound_data_beats_link0..7), Zen5 64 bytes\n"
	  "(local_socket_outbound_data_beats_link_0..5).  On Zen2 and Zen3 the\n"
	  "links share the Data Fabric's 4 counters with DRAM and are multiplexed;\n"
	  "\"xgmi off\" in the configuration file leaves the counters to DRAM.  A\n"
	  "counter; no value until every link has counted.  On a one-socket\n"
	  "machine the links carry nothing." },
	{ "amd.df.xgmi.inbound", AMD_DF_XGMI_INBOUND, PM_TYPE_U64, SOCKET_INDOM, PM_SEM_COUNTER, BYTE_UNITS,
	  "Cross-socket (xGMI) bytes received per socket",
	  "As amd.df.xgmi.outbound, inbound: only Zen5 has the events\n"
	  "(local_socket_inbound_data_beats_link_0..5, 64 bytes); other families\n"
	  "have no value." },
	{ "amd.df.xgmi.link.outbound", AMD_DF_XGMI_LINK_OUTBOUND, PM_TYPE_U64, LINK_INDOM, PM_SEM_COUNTER, BYTE_UNITS,
	  "Cross-socket bytes sent per link",
	  "One link's outbound data events times their size (32 or 64 bytes, by\n"
	  "family), estimated from the share of time they were on a counter.\n"
	  "Instances are socketS/linkN." },
	{ "amd.df.xgmi.link.inbound", AMD_DF_XGMI_LINK_INBOUND, PM_TYPE_U64, LINK_INDOM, PM_SEM_COUNTER, BYTE_UNITS,
	  "Cross-socket bytes received per link",
	  "Zen5 only, as amd.df.xgmi.link.outbound." },
	{ "amd.df.xgmi.link.duty_cycle", AMD_DF_XGMI_LINK_DUTY_CYCLE, PM_TYPE_DOUBLE, LINK_INDOM, PM_SEM_INSTANT, NO_UNITS,
	  "Share of the last interval this link was counted",
	  "As amd.df.channel.duty_cycle, for the link's counter group." },
	{ "amd.df.all.dram_bw", AMD_DF_ALL_DRAM_BW, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, BYTE_UNITS,
	  "DRAM bytes read and written, all sockets",
	  "The sum of amd.df.dram_bw over every socket.  A counter: rate conversion\n"
	  "gives the machine's DRAM bytes per second.  No value until every socket\n"
	  "has one, so that the sum never goes back when a socket starts counting." },
	{ "amd.df.all.peak_bw", AMD_DF_ALL_PEAK_BW, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_DISCRETE, BYTE_RATE_UNITS,
	  "Peak DRAM bandwidth, all sockets",
	  "The sum of amd.df.peak_bw over every socket; no value unless every\n"
	  "socket's peak is known (amd.df.peak_source says where they come from).\n"
	  "100 * rate(amd.df.all.dram_bw) / amd.df.all.peak_bw is the machine's\n"
	  "DRAM bandwidth as a percentage of its peak." },
};

static const struct metric l3_metrics[] = {
	{ "amd.l3.accesses", AMD_L3_ACCESSES, PM_TYPE_U64, CCX_INDOM, PM_SEM_COUNTER, COUNT_UNITS,
	  "L3 cache requests per L3 complex",
	  "Every request to the L3 of this CCX (event 0x04, umask 0xff), from all\n"
	  "its cores and slices." },
	{ "amd.l3.misses", AMD_L3_MISSES, PM_TYPE_U64, CCX_INDOM, PM_SEM_COUNTER, COUNT_UNITS,
	  "L3 cache misses per L3 complex",
	  "Requests that missed the L3 of this CCX (event 0x04, umask 0x01),\n"
	  "including those that only changed a line's state." },
	{ "amd.l3.miss_ratio", AMD_L3_MISS_RATIO, PM_TYPE_DOUBLE, CCX_INDOM, PM_SEM_INSTANT, NO_UNITS,
	  "L3 misses over accesses, last interval",
	  "Misses divided by accesses of this CCX over the last sampling interval.\n"
	  "Both events are one counter group, so they count the same window.  No\n"
	  "value while the CCX had no accesses." },
	{ "amd.l3.counted", AMD_L3_COUNTED, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, COUNT_UNITS,
	  "L3 complexes with a miss ratio now",
	  "How many instances of amd.l3.miss_ratio have a value over the last\n"
	  "window.  No value (not 0) where none has one: the L3 PMU is absent, not\n"
	  "counted, or has not yet counted a window.  The derived metrics\n"
	  "amd.util.l3_miss_avg and amd.util.l3_miss_max take it as their guard, so\n"
	  "that they too have no value there." },
};

/* Bytes, where they were counted. */
static int bytes(bool have, double v, pmAtomValue *atom)
{
	if (!have)
		return PMDA_FETCH_NOVALUES;
	atom->ull = whole(v);
	return PMDA_FETCH_STATIC;
}

/* The machine's DRAM bytes: the sockets' values summed as each is served,
 * and none until every socket has one, so that the sum only ever grows. */
static int all_bytes(pmAtomValue *atom)
{
	const struct amd *a = amd();
	uint64_t sum = 0;

	if (a->nsockets == 0)
		return PMDA_FETCH_NOVALUES;
	for (int i = 0; i < a->nsockets; i++) {
		if (!a->socket[i].have)
			return PMDA_FETCH_NOVALUES;
		sum += whole(a->socket[i].bytes);
	}
	atom->ull = sum;
	return PMDA_FETCH_STATIC;
}

/* The machine's peak: none unless every socket's is known. */
static int all_peak(pmAtomValue *atom)
{
	const struct amd *a = amd();
	double sum = 0;

	if (a->nsockets == 0)
		return PMDA_FETCH_NOVALUES;
	for (int i = 0; i < a->nsockets; i++) {
		if (a->socket[i].peak <= 0)
			return PMDA_FETCH_NOVALUES;
		sum += a->socket[i].peak;
	}
	atom->d = sum;
	return PMDA_FETCH_STATIC;
}

/* priv is a socket, a channel or a link, as the metric's instance domain
 * (none for the machine's totals).
 * Reads and writes apart, and links' inbound traffic, only where the
 * counters tell them apart. */
static int fetch_df(unsigned int item, void *priv, pmAtomValue *atom)
{
	const struct amd_socket *so = priv;
	const struct amd_channel *ch = priv;
	const struct amd_link *l = priv;
	bool rw = amd()->rw_apart, in = amd()->links_in;

	switch (item) {
	case AMD_DF_DRAM_BW: return bytes(so->have, so->bytes, atom);
	case AMD_DF_DRAM_READ: return bytes(so->have && rw, so->read, atom);
	case AMD_DF_DRAM_WRITE: return bytes(so->have && rw, so->write, atom);
	case AMD_DF_PEAK_BW:
		if (so->peak <= 0)
			return PMDA_FETCH_NOVALUES;
		atom->d = so->peak;
		break;
	case AMD_DF_CHANNEL_BYTES: return bytes(ch->have, ch->bytes, atom);
	case AMD_DF_CHANNEL_READ: return bytes(ch->have && rw, ch->read, atom);
	case AMD_DF_CHANNEL_WRITE: return bytes(ch->have && rw, ch->write, atom);
	case AMD_DF_CHANNEL_DUTY_CYCLE:
		atom->d = ch->duty;	/* 0 says why the bytes have no value */
		break;
	case AMD_DF_PEAK_SOURCE: atom->cp = (char *)amd()->peak_source; break;
	case AMD_DF_DRAM_UTIL: case AMD_DF_DRAM_UTIL_DUTY_CYCLE:
		if (!so->have_util)
			return PMDA_FETCH_NOVALUES;
		atom->d = item == AMD_DF_DRAM_UTIL ? so->util : so->util_duty;
		break;
	case AMD_DF_XGMI_OUTBOUND: return bytes(so->have_xgmi, so->xgmi_out, atom);
	case AMD_DF_XGMI_INBOUND: return bytes(so->have_xgmi && in, so->xgmi_in, atom);
	case AMD_DF_XGMI_LINK_OUTBOUND: return bytes(l->have, l->out, atom);
	case AMD_DF_XGMI_LINK_INBOUND: return bytes(l->have && in, l->in, atom);
	case AMD_DF_XGMI_LINK_DUTY_CYCLE: atom->d = l->duty; break;
	case AMD_DF_ALL_DRAM_BW: return all_bytes(atom);
	case AMD_DF_ALL_PEAK_BW: return all_peak(atom);
	default: return PM_ERR_PMID;
	}
	return PMDA_FETCH_STATIC;
}

/* The complexes with a miss ratio now; none is no value, not 0, so that a
 * formula over amd.l3.miss_ratio guarded by it has none either (PCP 6's
 * max() over no instances returns whatever its memory held). */
static int fetch_counted(pmAtomValue *atom)
{
	const struct amd *a = amd();
	uint32_t n = 0;

	for (int i = 0; i < a->nccx; i++)
		n += a->ccx[i].have_ratio;
	if (n == 0)
		return PMDA_FETCH_NOVALUES;
	atom->ul = n;
	return PMDA_FETCH_STATIC;
}

static int fetch_l3(unsigned int item, void *priv, pmAtomValue *atom)
{
	const struct amd_ccx *c = priv;

	if (item == AMD_L3_COUNTED)
		return fetch_counted(atom);
	if (!c->have || (item == AMD_L3_MISS_RATIO && !c->have_ratio))
		return PMDA_FETCH_NOVALUES;
	switch (item) {
	case AMD_L3_ACCESSES: atom->ull = whole(c->accesses); break;
	case AMD_L3_MISSES: atom->ull = whole(c->misses); break;
	case AMD_L3_MISS_RATIO: atom->d = c->ratio; break;
	default: return PM_ERR_PMID;
	}
	return PMDA_FETCH_STATIC;
}

/* Sockets, channels, links and L3 complexes are those the counters were
 * opened on, anew when they are opened again (amd()->generation). */
static void refresh_amd(double now)
{
	static bool named;
	static unsigned seen;
	const struct amd *a = amd();
	char name[48];

	(void)now;
	if (named && a->generation == seen)
		return;
	if (!named && !dso_mode && a->nsockets)
		pmNotifyErr(LOG_INFO, "DRAM peak: %s", a->peak_source);
	for (int s = 0; s < a->nsockets; s++) {
		snprintf(name, sizeof name, "socket%d", a->socket[s].id);
		pmdaCacheStore(indom(SOCKET_INDOM), PMDA_CACHE_ADD, name, (void *)&a->socket[s]);
		for (int ch = 0; ch < a->socket[s].nchannels; ch++) {
			snprintf(name, sizeof name, "socket%d/ch%d", a->socket[s].id, ch);
			pmdaCacheStore(indom(CHANNEL_INDOM), PMDA_CACHE_ADD, name,
				       (void *)&a->channel[s][ch]);
		}
		for (int n = 0; n < a->socket[s].nlinks; n++) {
			snprintf(name, sizeof name, "socket%d/link%d", a->socket[s].id, n);
			pmdaCacheStore(indom(LINK_INDOM), PMDA_CACHE_ADD, name, (void *)&a->link[s][n]);
		}
	}
	for (int i = 0; i < a->nccx; i++) {
		snprintf(name, sizeof name, "ccx%d", i);
		pmdaCacheStore(indom(CCX_INDOM), PMDA_CACHE_ADD, name, &a->ccx[i]);
	}
	pmdaCacheOp(indom(SOCKET_INDOM), PMDA_CACHE_SAVE);
	pmdaCacheOp(indom(CHANNEL_INDOM), PMDA_CACHE_SAVE);
	pmdaCacheOp(indom(LINK_INDOM), PMDA_CACHE_SAVE);
	pmdaCacheOp(indom(CCX_INDOM), PMDA_CACHE_SAVE);
	named = true;
	seen = a->generation;
}

/* An L3 complex is counted on one CPU: which, and its socket. */
static int label_ccx(pmInDom in, int inst, void *priv, pmLabelSet **lp)
{
	const struct amd_ccx *c = priv;

	if (in != indom(CCX_INDOM) || inst == (int)PM_IN_NULL)
		return 0;
	return pmdaAddLabels(lp, "{\"cpu\":%d,\"socket\":%d}", c->cpu, c->socket);
}

const struct cluster df_cluster = { METRICS(df_metrics), .fetch = fetch_df, .refresh = refresh_amd };
const struct cluster l3_cluster = { METRICS(l3_metrics), .fetch = fetch_l3, .label = label_ccx };

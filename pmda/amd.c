/*
 * amd.*: EPYC's memory subsystem from its uncore counters, DRAM and xGMI
 * traffic on the Data Fabric (per socket, channel and link) and L3 per
 * complex.  Counts are estimates, to the nearest byte or event.
 */
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
	{ "amd.df.dram_bw", AMD_DF_DRAM_BW, PM_TYPE_U64, SOCKET_INDOM, PM_SEM_COUNTER, BYTE_UNITS },
	{ "amd.df.dram_read", AMD_DF_DRAM_READ, PM_TYPE_U64, SOCKET_INDOM, PM_SEM_COUNTER, BYTE_UNITS },
	{ "amd.df.dram_write", AMD_DF_DRAM_WRITE, PM_TYPE_U64, SOCKET_INDOM, PM_SEM_COUNTER, BYTE_UNITS },
	{ "amd.df.peak_bw", AMD_DF_PEAK_BW, PM_TYPE_DOUBLE, SOCKET_INDOM, PM_SEM_DISCRETE, BYTE_RATE_UNITS },
	{ "amd.df.channel.bytes", AMD_DF_CHANNEL_BYTES, PM_TYPE_U64, CHANNEL_INDOM, PM_SEM_COUNTER, BYTE_UNITS },
	{ "amd.df.channel.read", AMD_DF_CHANNEL_READ, PM_TYPE_U64, CHANNEL_INDOM, PM_SEM_COUNTER, BYTE_UNITS },
	{ "amd.df.channel.write", AMD_DF_CHANNEL_WRITE, PM_TYPE_U64, CHANNEL_INDOM, PM_SEM_COUNTER, BYTE_UNITS },
	{ "amd.df.channel.duty_cycle", AMD_DF_CHANNEL_DUTY_CYCLE, PM_TYPE_DOUBLE, CHANNEL_INDOM, PM_SEM_INSTANT, NO_UNITS },
	{ "amd.df.peak_source", AMD_DF_PEAK_SOURCE, PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_DISCRETE, NO_UNITS },
	{ "amd.df.dram_util", AMD_DF_DRAM_UTIL, PM_TYPE_DOUBLE, SOCKET_INDOM, PM_SEM_INSTANT, NO_UNITS },
	{ "amd.df.dram_util_duty_cycle", AMD_DF_DRAM_UTIL_DUTY_CYCLE, PM_TYPE_DOUBLE, SOCKET_INDOM, PM_SEM_INSTANT, NO_UNITS },
	{ "amd.df.xgmi.outbound", AMD_DF_XGMI_OUTBOUND, PM_TYPE_U64, SOCKET_INDOM, PM_SEM_COUNTER, BYTE_UNITS },
	{ "amd.df.xgmi.inbound", AMD_DF_XGMI_INBOUND, PM_TYPE_U64, SOCKET_INDOM, PM_SEM_COUNTER, BYTE_UNITS },
	{ "amd.df.xgmi.link.outbound", AMD_DF_XGMI_LINK_OUTBOUND, PM_TYPE_U64, LINK_INDOM, PM_SEM_COUNTER, BYTE_UNITS },
	{ "amd.df.xgmi.link.inbound", AMD_DF_XGMI_LINK_INBOUND, PM_TYPE_U64, LINK_INDOM, PM_SEM_COUNTER, BYTE_UNITS },
	{ "amd.df.xgmi.link.duty_cycle", AMD_DF_XGMI_LINK_DUTY_CYCLE, PM_TYPE_DOUBLE, LINK_INDOM, PM_SEM_INSTANT, NO_UNITS },
	{ "amd.df.all.dram_bw", AMD_DF_ALL_DRAM_BW, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, BYTE_UNITS },
	{ "amd.df.all.peak_bw", AMD_DF_ALL_PEAK_BW, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_DISCRETE, BYTE_RATE_UNITS },
};

static const struct metric l3_metrics[] = {
	{ "amd.l3.accesses", AMD_L3_ACCESSES, PM_TYPE_U64, CCX_INDOM, PM_SEM_COUNTER, COUNT_UNITS },
	{ "amd.l3.misses", AMD_L3_MISSES, PM_TYPE_U64, CCX_INDOM, PM_SEM_COUNTER, COUNT_UNITS },
	{ "amd.l3.miss_ratio", AMD_L3_MISS_RATIO, PM_TYPE_DOUBLE, CCX_INDOM, PM_SEM_INSTANT, NO_UNITS },
	{ "amd.l3.counted", AMD_L3_COUNTED, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, COUNT_UNITS },
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

const struct cluster df_cluster = CLUSTER(df_metrics, fetch_df);
const struct cluster l3_cluster = CLUSTER(l3_metrics, fetch_l3);

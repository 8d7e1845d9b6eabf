#include "amd.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmi.h"
#include "sysroot.h"

#define AMD_MAX_GROUPS 1024	/* DF, UMC and L3 groups on the largest machines */
#define NOT_RUN_PASSES 2	/* a group this many passes off its counters is reported */

/* Why a set of counters could not be opened, in an operator's words. */
static void describe_error(char *out, size_t size, const struct uncore *u)
{
	long paranoid = -1;

	switch (-u->error) {
	case EACCES:
	case EPERM:
		sr_read_long(&paranoid, INT_MIN, INT_MAX, "/proc/sys/kernel/perf_event_paranoid");
		snprintf(out, size, "permission denied opening %s counters (kernel.perf_event_paranoid "
			 "= %ld; system-wide counting needs root or CAP_PERFMON): %s", u->pmu.name,
			 paranoid, u->why);
		break;
	case EBUSY:
	case ENOSPC:
		snprintf(out, size, "%s counters busy (held by another user of the PMU; tried again "
			 "every %d passes): %s", u->pmu.name, AMD_RETRY_PASSES, u->why);
		break;
	default:
		snprintf(out, size, "%s", u->why);
	}
}

static void mux_words(struct amd *a, const struct uncore *u, int nunits, const char *what)
{
	if (u->ngroups == 1)
		snprintf(a->mux_text, sizeof a->mux_text, "%d %s on %d counters, no multiplexing",
			 nunits, what, u->spec.counters);
	else if (u->pmu.mux_interval_ms)
		snprintf(a->mux_text, sizeof a->mux_text, "%d %s on %d counters: %d groups rotated "
			 "every %u ms, each counting 1/%d of the time", nunits, what,
			 u->spec.counters, u->ngroups, u->pmu.mux_interval_ms, u->ngroups);
	else
		snprintf(a->mux_text, sizeof a->mux_text, "%d %s on %d counters: %d groups rotated "
			 "by the kernel, each counting 1/%d of the time", nunits, what,
			 u->spec.counters, u->ngroups, u->ngroups);
}

static void name_sockets(struct amd *a, const struct pmu *p, const struct topology *topo)
{
	a->nsockets = p->ncpus < AMD_MAX_SOCKETS ? p->ncpus : AMD_MAX_SOCKETS;
	for (int i = 0; i < a->nsockets; i++) {
		int cpu = p->cpu[i];
		a->socket[i].id = cpu < topo->ncpus && topo->socket_of[cpu] >= 0 ?
			topo->socket_of[cpu] : i;
	}
}

static int open_umc(struct amd *a, const struct smt_config *cfg)
{
	struct uncore_spec spec = { .second_field = "rdwrmask", .nunits = 1, .per_unit = 2,
		.event = { { AMD_UMC_CAS_CMD, AMD_UMC_CAS_CMD } }, .second = { { 1, 2 } },
		.counters = config_pmu_counters(cfg, "amd_umc", AMD_UMC_COUNTERS) };
	int sts = 0;

	for (int ch = 0; ch < a->nchannels; ch++) {
		char name[PMU_NAME_MAX];

		snprintf(name, sizeof name, "amd_umc_%d", ch);
		if ((sts = uncore_open(&a->umc[ch], name, &spec, a->backend)) < 0) {
			describe_error(a->df_status, sizeof a->df_status, &a->umc[ch]);
			while (ch-- > 0)
				uncore_close(&a->umc[ch], a->backend);
			return sts;
		}
	}
	snprintf(a->mux_text, sizeof a->mux_text, "%d amd_umc PMUs, reads and writes on %d "
		 "counters each, no multiplexing", a->nchannels, spec.counters);
	return 0;
}

static int open_df(struct amd *a, const struct smt_config *cfg)
{
	const struct amd_family *f = a->family;
	struct uncore_spec spec = { .second_field = "umask", .nunits = a->nchannels,
		.per_unit = f->df_nevents, .counters = config_pmu_counters(cfg, "amd_df",
									   f->df_counters) };
	int sts;

	for (int ch = 0; ch < a->nchannels; ch++)
		for (int k = 0; k < f->df_nevents; k++) {
			spec.event[ch][k] = amd_df_event(f, ch);
			spec.second[ch][k] = f->df[k].umask;
		}
	if ((sts = uncore_open(&a->df, "amd_df", &spec, a->backend)) < 0) {
		describe_error(a->df_status, sizeof a->df_status, &a->df);
		return sts;
	}
	mux_words(a, &a->df, spec.nunits * spec.per_unit, "DRAM channel events");
	return 0;
}

static void init_dram(struct amd *a, const struct smt_config *cfg, const struct cpuinfo *ci,
		      const struct topology *topo)
{
	int have_df = sr_exists("/sys/bus/event_source/devices/amd_df");
	int have_umc = sr_exists("/sys/bus/event_source/devices/amd_umc_0");

	if (!have_df && !have_umc) {
		snprintf(a->df_status, sizeof a->df_status, "no amd_df PMU in /sys/bus/event_source/"
			 "devices (not an AMD EPYC host, or hidden by the hypervisor)");
		return;
	}
	if (a->family == NULL) {
		snprintf(a->df_status, sizeof a->df_status, "no DRAM event table for %s family 0x%x "
			 "model 0x%x", ci->vendor, ci->family, ci->model);
		return;
	}
	a->nchannels = cfg->dram_channels ? cfg->dram_channels : a->family->channels;
	a->use_umc = a->family->has_umc && have_umc;
	/* The kernel makes a UMC PMU per active memory controller: a socket
	 * with fewer channels populated has fewer. */
	for (int ch = 0; a->use_umc && ch < a->nchannels; ch++)
		if (!sr_exists("/sys/bus/event_source/devices/amd_umc_%d", ch))
			a->nchannels = ch;
	if ((a->dram_error = a->use_umc ? open_umc(a, cfg) : open_df(a, cfg)) < 0)
		return;
	a->rw_apart = a->use_umc || a->family->df[0].kind != DRAM_READ_WRITE;
	name_sockets(a, a->use_umc ? &a->umc[0].pmu : &a->df.pmu, topo);
	snprintf(a->df_ok, sizeof a->df_ok, "ok: %s, %d socket%s, %s", a->family->name,
		 a->nsockets, a->nsockets == 1 ? "" : "s", a->mux_text);
	snprintf(a->df_status, sizeof a->df_status, "%s", a->df_ok);
}

static void init_l3(struct amd *a, const struct smt_config *cfg, const struct topology *topo)
{
	struct uncore_spec spec = { .second_field = "umask", .nunits = 1, .per_unit = 2,
		.event = { { 0, AMD_L3_EVENT } }, .second = { { 0, AMD_L3_UMASK_MISSES } },
		.counters = config_pmu_counters(cfg, "amd_l3", AMD_L3_COUNTERS) };

	if (!sr_exists("/sys/bus/event_source/devices/amd_l3")) {
		snprintf(a->l3_status, sizeof a->l3_status, "no amd_l3 PMU in /sys/bus/event_source/"
			 "devices (not an AMD Zen host, or hidden by the hypervisor)");
		return;
	}
	amd_l3_access_codes(&spec.event[0][0], &spec.second[0][0]);
	if ((a->l3_error = uncore_open(&a->l3, "amd_l3", &spec, a->backend)) < 0) {
		describe_error(a->l3_status, sizeof a->l3_status, &a->l3);
		return;
	}
	a->nccx = a->l3.pmu.ncpus;
	if ((a->ccx = calloc((size_t)a->nccx, sizeof *a->ccx)) == NULL) {
		snprintf(a->l3_status, sizeof a->l3_status, "out of memory");
		uncore_close(&a->l3, a->backend);
		a->nccx = 0;
		return;
	}
	for (int i = 0; i < a->nccx; i++) {
		int cpu = a->l3.pmu.cpu[i];
		a->ccx[i].cpu = cpu;
		a->ccx[i].socket = cpu < topo->ncpus ? topo->socket_of[cpu] : -1;
	}
	snprintf(a->l3_ok, sizeof a->l3_ok, "ok: %d L3 complexes, accesses and misses in one "
		 "group each", a->nccx);
	snprintf(a->l3_status, sizeof a->l3_status, "%s", a->l3_ok);
}

static void init_peak(struct amd *a, const struct smt_config *cfg)
{
	struct dmi_memory m;
	int sts, per_socket;

	if (cfg->dram_peak_gbs > 0) {
		for (int s = 0; s < a->nsockets; s++)
			a->socket[s].peak = cfg->dram_peak_gbs * 1e9;
		snprintf(a->peak_source, sizeof a->peak_source, "configuration file (dram_peak %g GB/s)",
			 cfg->dram_peak_gbs);
		return;
	}
	if ((sts = dmi_memory_read(&m)) < 0) {
		snprintf(a->peak_source, sizeof a->peak_source, "none: no dram_peak setting, and %s",
			 sts == -EINVAL ? "SMBIOS lists no populated memory device" :
			 sts == -EFBIG ? "the SMBIOS table is larger than " DMI_TABLE_MAX_TEXT " bytes" :
			 "no SMBIOS table at /sys/firmware/dmi/tables/DMI");
		return;
	}
	per_socket = a->nsockets ? (m.channels + a->nsockets - 1) / a->nsockets : 0;
	if (a->nchannels && per_socket > a->nchannels)
		per_socket = a->nchannels;
	for (int s = 0; s < a->nsockets; s++)
		a->socket[s].peak = (double)per_socket * m.mts * 1e6 * (m.data_width / 8);
	snprintf(a->peak_source, sizeof a->peak_source, "SMBIOS: %d modules in %d channels at "
		 "%d MT/s", m.populated, m.channels, m.mts);
}

void amd_init(struct amd *a, const struct smt_config *cfg, const struct cpuinfo *ci,
	      const struct topology *topo)
{
	char why[256];

	memset(a, 0, sizeof *a);
	a->cfg = cfg;
	a->ci = ci;
	a->topo = topo;
	if (strcmp(ci->vendor, "AuthenticAMD") == 0)
		a->family = amd_family_find(ci->family, ci->model);
	if (cfg->replay[0]) {
		a->backend = ctr_replay_new(cfg->replay, AMD_MAX_GROUPS, why, sizeof why);
		if (a->backend == NULL) {
			snprintf(a->df_status, sizeof a->df_status, "replay: %s", why);
			snprintf(a->l3_status, sizeof a->l3_status, "replay: %s", why);
			return;
		}
	} else if ((a->backend = ctr_perf_new(AMD_MAX_GROUPS)) == NULL) {
		snprintf(a->df_status, sizeof a->df_status, "out of memory");
		snprintf(a->l3_status, sizeof a->l3_status, "out of memory");
		return;
	}
	init_dram(a, cfg, ci, topo);
	init_l3(a, cfg, topo);
	init_peak(a, cfg);
}

/* Channel totals from the counts: 64 bytes an event. */
static void sum_channels(struct amd *a)
{
	for (int s = 0; s < a->nsockets; s++) {
		struct amd_socket *so = &a->socket[s];

		so->bytes = so->read = so->write = 0;
		so->have = true;
		for (int ch = 0; ch < a->nchannels; ch++) {
			struct amd_channel *c = &a->channel[s][ch];
			const struct uncore *u = a->use_umc ? &a->umc[ch] : &a->df;
			int cell = uncore_index(u, s, a->use_umc ? 0 : ch), per = u->spec.per_unit;

			/* An interval off the counters is carried into the next one;
			 * until then the channel has no value rather than a flat one. */
			c->have = u->have[cell] && u->fresh[cell];
			c->duty = u->duty[cell];
			c->bytes = c->read = c->write = 0;
			for (int k = 0; k < per; k++) {
				double bytes = u->total[cell * per + k] * AMD_BYTES_PER_EVENT;
				enum amd_dram_kind kind = a->use_umc ? (k ? DRAM_WRITE : DRAM_READ) :
					a->family->df[k].kind;

				c->bytes += bytes;
				if (kind == DRAM_READ)
					c->read += bytes;
				else if (kind == DRAM_WRITE)
					c->write += bytes;
			}
			so->bytes += c->bytes;
			so->read += c->read;
			so->write += c->write;
			so->have &= c->have;
		}
	}
}

static void sum_ccx(struct amd *a)
{
	for (int i = 0; i < a->nccx; i++) {
		struct amd_ccx *c = &a->ccx[i];
		int cell = uncore_index(&a->l3, i, 0);	/* one unit: accesses, misses */
		const double *w = &a->l3.window[cell * 2], *t = &a->l3.total[cell * 2];

		c->have = a->l3.have[cell] && a->l3.fresh[cell];
		c->accesses = t[0];
		c->misses = t[1];
		/* Both from one group: the same slices of the same interval. */
		c->have_ratio = c->have && w[0] > 0;
		c->ratio = c->have_ratio ? w[1] / w[0] : 0;
	}
}

/* A read that failed, or groups kept off their counters (an oversized
 * group never runs; another user can take counters) for a couple of passes. */
static void note_trouble(const struct uncore *u, char *status, size_t size)
{
	if (u->error) {
		describe_error(status, size, u);
		return;
	}
	for (int i = 0; u->open && i < u->pmu.ncpus * u->ngroups; i++)
		if (u->group[i].not_run >= NOT_RUN_PASSES) {
			snprintf(status, size, "%s group %d on cpu %d has not counted for %u passes "
				 "(its counters are held by another user, or the group is larger than "
				 "the PMU's counters)", u->pmu.name, i % u->ngroups,
				 u->pmu.cpu[u->group[i].cpu_index], u->group[i].not_run);
			return;
		}
}

static bool transient(int error)
{
	return error == -EBUSY || error == -ENOSPC;
}

/* Counters another user held at start-up may be free now.  Opening them
 * allocates, which only this recovery does after start-up. */
static void retry_busy(struct amd *a)
{
	bool dram = a->nsockets == 0 && transient(a->dram_error);
	bool l3 = a->nccx == 0 && transient(a->l3_error);

	if ((!dram && !l3) || ++a->passes % AMD_RETRY_PASSES != 0)
		return;
	if (dram) {
		init_dram(a, a->cfg, a->ci, a->topo);
		if (a->nsockets)
			init_peak(a, a->cfg);
	}
	if (l3)
		init_l3(a, a->cfg, a->topo);
	if (a->nsockets || a->nccx)
		a->generation++;
}

void amd_read(struct amd *a)
{
	if (a->backend == NULL)
		return;
	a->backend->ops->begin_pass(a->backend);
	retry_busy(a);
	if (a->nsockets) {
		for (int ch = 0; a->use_umc && ch < a->nchannels; ch++)
			uncore_read(&a->umc[ch], a->backend);
		if (!a->use_umc)
			uncore_read(&a->df, a->backend);
		sum_channels(a);
		snprintf(a->df_status, sizeof a->df_status, "%s", a->df_ok);
		for (int ch = 0; ch < (a->use_umc ? a->nchannels : 1); ch++)
			note_trouble(a->use_umc ? &a->umc[ch] : &a->df, a->df_status,
					 sizeof a->df_status);
	}
	if (a->nccx) {
		uncore_read(&a->l3, a->backend);
		sum_ccx(a);
		snprintf(a->l3_status, sizeof a->l3_status, "%s", a->l3_ok);
		note_trouble(&a->l3, a->l3_status, sizeof a->l3_status);
	}
	if (ctr_replay_ended(a->backend)) {
		if (a->nsockets)
			snprintf(a->df_status, sizeof a->df_status, "replay ended: the trace has no "
				 "more steps, counters stand still");
		if (a->nccx)
			snprintf(a->l3_status, sizeof a->l3_status, "replay ended: the trace has no "
				 "more steps, counters stand still");
	}
}

void amd_free(struct amd *a)
{
	if (a->backend) {
		uncore_close(&a->df, a->backend);
		for (int ch = 0; ch < AMD_MAX_CHANNELS; ch++)
			uncore_close(&a->umc[ch], a->backend);
		uncore_close(&a->l3, a->backend);
		a->backend->ops->destroy(a->backend);
	}
	free(a->ccx);
	memset(a, 0, sizeof *a);
}

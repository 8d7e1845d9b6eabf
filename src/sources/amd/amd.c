#include "amd_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmi.h"
#include "sysroot.h"

#define NOT_RUN_PASSES 2	/* a group this many passes off its counters is reported */

/* How DRAM is counted, in words: as its opener put it, and, on the Data
 * Fabric, how its groups (DRAM and links together) take turns on its
 * counters.  Made again whenever either opens. */
static void describe_counting(struct amd *a)
{
	const struct uncore *df = a->df.open ? &a->df : &a->links;
	int groups = (a->df.open ? a->df.ngroups : 0) + (a->links.open ? a->links.ngroups : 0);
	const char *with = a->links.open ? " (with the xGMI links)" : "";
	size_t len;

	snprintf(a->mux_text, sizeof a->mux_text, "%s", a->dram_text);
	len = strlen(a->mux_text);
	if (!a->df.open || len >= sizeof a->mux_text)
		return;
	if (groups < 2)
		snprintf(a->mux_text + len, sizeof a->mux_text - len, ", no multiplexing");
	else if (df->pmu.mux_interval_ms)
		snprintf(a->mux_text + len, sizeof a->mux_text - len, "%s: %d groups rotated every "
			 "%u ms, each counting 1/%d of the time", with, groups,
			 df->pmu.mux_interval_ms, groups);
	else
		snprintf(a->mux_text + len, sizeof a->mux_text - len, "%s: %d groups rotated by the "
			 "kernel, each counting 1/%d of the time", with, groups, groups);
}

static void set_dram_ok(struct amd *a)
{
	snprintf(a->df_ok, sizeof a->df_ok, "ok: %s, %d socket%s, %s%s", a->family->name,
		 a->nsockets, a->nsockets == 1 ? "" : "s", a->mux_text, a->dram_note);
	snprintf(a->df_status, AMD_STATUS_LEN, "%s", a->df_ok);
}

static void init_dram(struct amd *a)
{
	a->dram_error = amd_dram_open(a);
}

static void init_links(struct amd *a)
{
	if (a->family == NULL || a->family->nlinks == 0 ||
	    !sr_exists("/sys/bus/event_source/devices/amd_df")) {
		snprintf(a->xgmi_status, AMD_STATUS_LEN, "%s", a->family == NULL ?
			 "no xGMI event table for this processor" :
			 "no amd_df PMU in /sys/bus/event_source/devices (not an AMD EPYC host, or "
			 "hidden by the hypervisor)");
		a->xgmi_error = -ENOENT;
		return;
	}
	if (!a->cfg->xgmi) {
		snprintf(a->xgmi_status, AMD_STATUS_LEN, "off in the configuration file "
			 "(xgmi off): the Data Fabric counters are DRAM's alone");
		a->xgmi_error = -ENOENT;
		return;
	}
	if ((a->xgmi_error = amd_links_open(a)) == 0)
		snprintf(a->xgmi_status, AMD_STATUS_LEN, "%s", a->xgmi_ok);
}

static void init_l3(struct amd *a, const struct smt_config *cfg, const struct topology *topo)
{
	struct uncore_spec spec = { .second_field = "umask", .nunits = 1, .per_unit = 2,
		.event = { { 0, AMD_L3_EVENT } }, .second = { { 0, AMD_L3_UMASK_MISSES } },
		.counters = config_pmu_counters(cfg, "amd_l3", AMD_L3_COUNTERS) };

	if (!sr_exists("/sys/bus/event_source/devices/amd_l3")) {
		snprintf(a->l3_status, AMD_STATUS_LEN, "no amd_l3 PMU in /sys/bus/event_source/"
			 "devices (not an AMD Zen host, or hidden by the hypervisor)");
		return;
	}
	amd_l3_access_codes(&spec.event[0][0], &spec.second[0][0]);
	if ((a->l3_error = uncore_open(&a->l3, "amd_l3", &spec, a->backend)) < 0) {
		amd_describe_error(a->l3_status, AMD_STATUS_LEN, &a->l3);
		return;
	}
	a->nccx = a->l3.pmu.ncpus;
	if ((a->ccx = calloc((size_t)a->nccx, sizeof *a->ccx)) == NULL) {
		snprintf(a->l3_status, AMD_STATUS_LEN, "out of memory");
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
	snprintf(a->l3_status, AMD_STATUS_LEN, "%s", a->l3_ok);
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
	/* The UMC PMUs are the active controllers of each socket; without
	 * them, the populated channels are shared evenly. */
	per_socket = a->nsockets ? (m.channels + a->nsockets - 1) / a->nsockets : 0;
	for (int s = 0; s < a->nsockets; s++) {
		int channels = per_socket;

		if (a->socket[s].nchannels && (a->use_umc || channels > a->socket[s].nchannels))
			channels = a->socket[s].nchannels;
		a->socket[s].peak = (double)channels * m.mts * 1e6 * (m.data_width / 8);
	}
	snprintf(a->peak_source, sizeof a->peak_source, "SMBIOS: %d modules in %d channels at "
		 "%d MT/s", m.populated, m.channels, m.mts);
}

void amd_init(struct amd *a, const struct smt_config *cfg, const struct cpuinfo *ci,
	      const struct topology *topo, char (*status)[AMD_STATUS_LEN])
{
	char why[256];

	memset(a, 0, sizeof *a);
	a->df_status = status[AMD_STATUS_DF];
	a->l3_status = status[AMD_STATUS_L3];
	a->xgmi_status = status[AMD_STATUS_XGMI];
	a->cfg = cfg;
	a->ci = ci;
	a->topo = topo;
	if (strcmp(ci->vendor, "AuthenticAMD") == 0)
		a->family = amd_family_find(ci->family, ci->model);
	if ((a->backend = ctr_backend_new(cfg->replay, AMD_MAX_GROUPS, why, sizeof why)) == NULL) {
		snprintf(a->df_status, AMD_STATUS_LEN, "%s", why);
		snprintf(a->l3_status, AMD_STATUS_LEN, "%s", why);
		snprintf(a->xgmi_status, AMD_STATUS_LEN, "%s", why);
		return;
	}
	init_dram(a);
	init_links(a);
	describe_counting(a);
	if (a->dram_error == 0)
		set_dram_ok(a);
	init_l3(a, cfg, topo);
	init_peak(a, cfg);
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

/* A read that failed, a saturated counter, or groups kept off their
 * counters (an oversized group never runs; another user can take
 * counters) for a couple of passes.  Returns true when it said so. */
static bool note_trouble(const struct uncore *u, char *status, size_t size)
{
	if (!u->open)
		return false;
	if (u->error) {
		amd_describe_error(status, size, u);
		return true;
	}
	if (u->nsaturated) {
		snprintf(status, size, "%s: %d counter unit%s saturated at 2^48 and stopped, so %s "
			 "no value (kernels without commit 2492e5aba2be, in 6.12-stable and later, "
			 "let UMC counters saturate instead of wrapping; a newer kernel fixes it)",
			 u->pmu.name, u->nsaturated, u->nsaturated == 1 ? "" : "s",
			 u->nsaturated == 1 ? "it has" : "they have");
		return true;
	}
	for (int i = 0; i < u->pmu.ncpus * u->ngroups; i++)
		if (u->group[i].not_run >= NOT_RUN_PASSES) {
			snprintf(status, size, "%s group %d on cpu %d has not counted for %u passes "
				 "(its counters are held by another user, or the group is larger than "
				 "the PMU's counters)", u->pmu.name, i % u->ngroups,
				 u->pmu.cpu[u->group[i].cpu_index], u->group[i].not_run);
			return true;
		}
	return false;
}

static bool transient(int error)
{
	return error == -EBUSY || error == -ENOSPC;
}

/* Counters another user held at start-up may be free now.  Opening them
 * allocates, which only this recovery does after start-up. */
static void retry_busy(struct amd *a)
{
	bool dram = transient(a->dram_error), links = transient(a->xgmi_error);
	bool l3 = a->nccx == 0 && transient(a->l3_error);

	if ((!dram && !l3 && !links) || ++a->passes % AMD_RETRY_PASSES != 0)
		return;
	if (links)
		init_links(a);
	if (dram) {
		init_dram(a);
		if (a->dram_error == 0)
			init_peak(a, a->cfg);
	}
	if (dram || links) {
		describe_counting(a);
		if (a->dram_error == 0)
			set_dram_ok(a);
	}
	if (l3)
		init_l3(a, a->cfg, a->topo);
	if (a->dram_error == 0 || a->xgmi_error == 0 || a->nccx)
		a->generation++;
}

static void read_dram(struct amd *a)
{
	bool said = false;

	for (int i = 0; i < a->numc; i++)
		uncore_read(&a->umc[i], a->backend);
	uncore_read(&a->df, a->backend);
	amd_dram_sum(a);
	snprintf(a->df_status, AMD_STATUS_LEN, "%s", a->df_ok);
	for (int i = 0; i < a->numc && !said; i++)
		said = note_trouble(&a->umc[i], a->df_status, AMD_STATUS_LEN);
	if (!said)
		note_trouble(&a->df, a->df_status, AMD_STATUS_LEN);
}

void amd_read(struct amd *a)
{
	static const char ended[] = "replay ended: the trace has no more steps, counters stand still";

	if (a->backend == NULL)
		return;
	a->backend->ops->begin_pass(a->backend);
	retry_busy(a);
	if (a->dram_error == 0)
		read_dram(a);
	if (a->xgmi_error == 0) {
		uncore_read(&a->links, a->backend);
		amd_links_sum(a);
		snprintf(a->xgmi_status, AMD_STATUS_LEN, "%s", a->xgmi_ok);
		note_trouble(&a->links, a->xgmi_status, AMD_STATUS_LEN);
	}
	if (a->nccx) {
		uncore_read(&a->l3, a->backend);
		sum_ccx(a);
		snprintf(a->l3_status, AMD_STATUS_LEN, "%s", a->l3_ok);
		note_trouble(&a->l3, a->l3_status, AMD_STATUS_LEN);
	}
	if (ctr_replay_ended(a->backend)) {
		if (a->dram_error == 0)
			snprintf(a->df_status, AMD_STATUS_LEN, "%s", ended);
		if (a->xgmi_error == 0)
			snprintf(a->xgmi_status, AMD_STATUS_LEN, "%s", ended);
		if (a->nccx)
			snprintf(a->l3_status, AMD_STATUS_LEN, "%s", ended);
	}
}

static int groups_of(const struct uncore *u)
{
	return u->open ? u->pmu.ncpus * u->ngroups : 0;
}

int amd_groups(const struct amd *a)
{
	int n = groups_of(&a->df) + groups_of(&a->links) + groups_of(&a->l3);

	for (int i = 0; i < a->numc; i++)
		n += groups_of(&a->umc[i]);
	return n;
}

void amd_free(struct amd *a)
{
	if (a->backend) {
		amd_dram_close(a);
		uncore_close(&a->links, a->backend);
		uncore_close(&a->l3, a->backend);
		a->backend->ops->destroy(a->backend);
	}
	free(a->ccx);
	memset(a, 0, sizeof *a);
}

/*
 * DRAM bytes per channel and socket: on the Data Fabric (one amd_df PMU,
 * its cpumask one CPU per socket, every channel's events multiplexed on its
 * counters), or on the UMC PMUs (amd_umc.c); and this pass's sums.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amd_internal.h"
#include "sysroot.h"

static int open_df(struct amd *a)
{
	const struct amd_family *f = a->family;
	int nchannels = a->cfg->dram_channels ? a->cfg->dram_channels : f->channels;
	struct uncore_spec spec = { .second_field = "umask", .nunits = nchannels,
		.per_unit = f->df_nevents,
		.counters = config_pmu_counters(a->cfg, "amd_df", f->df_counters) };
	int sts;

	for (int ch = 0; ch < nchannels; ch++)
		for (int k = 0; k < f->df_nevents; k++) {
			spec.event[ch][k] = amd_df_event(f, ch);
			spec.second[ch][k] = f->df[k].umask;
		}
	if ((sts = uncore_open(&a->df, "amd_df", &spec, a->backend)) < 0) {
		amd_describe_error(a->df_status, AMD_STATUS_LEN, &a->df);
		return sts;
	}
	for (int i = 0; i < a->df.pmu.ncpus; i++) {
		int s = amd_unit_socket_slot(a, i, a->df.pmu.cpu[i]);

		if (s < 0)
			break;
		a->socket[s].nchannels = nchannels;
		for (int ch = 0; ch < nchannels; ch++)
			a->channel[s][ch] = (struct amd_channel){ .umc = -1, .at = { &a->df, i, ch } };
	}
	/* amd.c adds how they share the counters with the links */
	snprintf(a->dram_text, sizeof a->dram_text, "%d DRAM channel events on %d counters",
		 spec.nunits * spec.per_unit, spec.counters);
	return 0;
}

int amd_dram_open(struct amd *a)
{
	int have_df = sr_exists("/sys/bus/event_source/devices/amd_df");
	int have_umc = sr_exists("/sys/bus/event_source/devices/amd_umc_0");
	int sts;

	a->dram_note[0] = '\0';
	if (!have_df && !have_umc) {
		snprintf(a->df_status, AMD_STATUS_LEN, "no amd_df PMU in /sys/bus/event_source/"
			 "devices (not an AMD EPYC host, or hidden by the hypervisor)");
		return -ENOENT;
	}
	if (a->family == NULL) {
		snprintf(a->df_status, AMD_STATUS_LEN, "no DRAM event table for %s family 0x%x "
			 "model 0x%x", a->ci->vendor, a->ci->family, a->ci->model);
		return -ENOENT;
	}
	/* Any amd_umc_N will do: numbering gaps are the kernel's to make. */
	a->use_umc = a->family->has_umc && (have_umc ||
		     sr_exists("/sys/bus/event_source/devices/amd_umc_1"));
	sts = a->use_umc ? amd_umc_open(a) : open_df(a);
	if (sts < 0) {
		amd_dram_close(a);
		return sts;
	}
	a->rw_apart = a->use_umc || a->family->df[0].kind != DRAM_READ_WRITE;
	return 0;
}

/* A channel's totals, in bytes, from its unit's estimated counts. */
static void sum_channel(const struct amd *a, struct amd_channel *c)
{
	const struct uncore *u = c->at.u;
	int cell = uncore_index(u, c->at.cpu_index, c->at.unit), per = u->spec.per_unit;

	/* An interval off the counters is carried into the next one; until
	 * then the channel has no value rather than a flat one. */
	c->have = u->have[cell] && u->fresh[cell];
	c->saturated = u->saturated[cell];
	c->duty = u->duty[cell];
	c->bytes = c->read = c->write = 0;
	for (int k = 0; k < per; k++) {
		double bytes = u->total[cell * per + k] * AMD_BYTES_PER_EVENT;
		enum amd_dram_kind kind = c->umc >= 0 ? (k ? DRAM_WRITE : DRAM_READ) :
			a->family->df[k].kind;

		c->bytes += bytes;
		if (kind == DRAM_READ)
			c->read += bytes;
		else if (kind == DRAM_WRITE)
			c->write += bytes;
	}
}

/* The data bus of a socket's controllers over the last window: the slots
 * they used out of those they had (perf's umc_data_bus_utilization,
 * summed over the controllers). */
static void sum_bus(struct amd *a, struct amd_socket *so, struct amd_channel *c)
{
	double slots = 0, clocks = 0, duty = 0;
	bool all = so->nchannels > 0;

	for (int ch = 0; ch < so->nchannels; ch++) {
		const struct uncore *u = c[ch].bus.u;
		int cell, per;

		if (u == NULL) {
			all = false;
			break;
		}
		cell = uncore_index(u, c[ch].bus.cpu_index, c[ch].bus.unit);
		per = u->spec.per_unit;
		all &= u->fresh[cell] && !u->saturated[cell];
		slots += u->window[cell * per];
		clocks += u->window[cell * per + 1];
		duty += u->duty[cell];
	}
	(void)a;
	so->have_util = all && clocks > 0;
	so->util = so->have_util ? slots / AMD_UMC_SLOTS_PER_CLK / clocks : 0;
	so->util_duty = so->nchannels ? duty / so->nchannels : 0;
}

void amd_dram_sum(struct amd *a)
{
	for (int s = 0; s < a->nsockets; s++) {
		struct amd_socket *so = &a->socket[s];

		so->bytes = so->read = so->write = 0;
		so->have = so->nchannels > 0;
		for (int ch = 0; ch < so->nchannels; ch++) {
			struct amd_channel *c = &a->channel[s][ch];

			sum_channel(a, c);
			so->bytes += c->bytes;
			so->read += c->read;
			so->write += c->write;
			so->have &= c->have;
		}
		if (a->use_umc)
			sum_bus(a, so, a->channel[s]);
	}
}

void amd_dram_close(struct amd *a)
{
	if (a->backend == NULL)
		return;
	uncore_close(&a->df, a->backend);
	for (int i = 0; a->umc && i < a->numc; i++)	/* one that failed closed itself */
		uncore_close(&a->umc[i], a->backend);
	free(a->umc);
	a->umc = NULL;
	a->numc = 0;
	for (int s = 0; s < AMD_MAX_SOCKETS; s++)
		a->socket[s].nchannels = 0;
	memset(a->channel, 0, sizeof a->channel);
}

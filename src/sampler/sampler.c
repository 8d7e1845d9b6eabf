#include "sampler.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core_account.h"
#include "log.h"
#include "monoclock.h"
#include "modelchoice.h"
#include "printable.h"
#include "readfile.h"
#include "source.h"
#include "sysroot.h"

static const char *const own_status_names[SLOT_COUNT] = { "cpustat", "config", "topology" };

void sampler_set_status(struct sampler *s, enum sampler_slot slot, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->status[slot], sizeof s->status[slot], fmt, ap);
	va_end(ap);
	printable_copy(s->status[slot], sizeof s->status[slot], s->status[slot],
		       sizeof s->status[slot]);
}

const char *sampler_status(const struct sampler *s, const char *name)
{
	for (int i = 0; i < s->nstatus; i++)
		if (strcmp(s->status_name[i], name) == 0)
			return s->status[i];
	return NULL;
}

void *sampler_state(const struct sampler *s, const struct sampler_source *src)
{
	for (int i = 0; i < s->nsources; i++)
		if (s->source[i] == src)
			return s->state[i];
	return NULL;
}

bool sampler_ask(struct sampler *s, const struct sampler_source *src, unsigned what)
{
	for (int i = 0; i < s->nsources; i++)
		if (s->source[i] == src && !s->stopped[i] && src->ask)
			return src->ask(&s->ctx[i], s->state[i], what);
	return false;
}

/* The status instances, the sampler's own then each source's, and each
 * source's context: what it reads and its own status slots. */
static void name_statuses(struct sampler *s, const struct sampler_source *const *sources,
			  int nsources)
{
	for (int i = 0; i < SLOT_COUNT; i++)
		s->status_name[s->nstatus++] = own_status_names[i];
	s->nsources = nsources < SOURCE_MAX ? nsources : SOURCE_MAX;
	for (int i = 0; i < s->nsources; i++) {
		struct source_ctx *ctx = &s->ctx[i];

		s->source[i] = sources[i];
		*ctx = (struct source_ctx){ .config = &s->config, .cpuinfo = &s->cpuinfo,
					    .topo = &s->topo, .status = &s->status[s->nstatus] };
		for (int k = 0; k < s->source[i]->nstatus && s->nstatus < SOURCE_MAX_STATUS; k++) {
			s->status_name[s->nstatus++] = s->source[i]->status_names[k];
			ctx->nstatus++;
		}
	}
}

/* Cores of more than one thread that no SMT table covers: the processor's
 * family has none (s390, ARM ...), and none is borrowed from another. */
static int cores_without_table(const struct sampler *s)
{
	int n = 0;

	for (int i = 0; i < s->topo.ncores; i++) {
		const struct topo_core *c = &s->topo.cores[i];
		const struct smt_table *t = s->core[c->first_cpu].table;
		n += c->nthreads > 1 && (t == NULL || t->nthreads < 2);
	}
	return n;
}

static void topology_status(struct sampler *s)
{
	int err = s->topo.online_error, untabled = s->untabled_cores;
	const struct topology *t = &s->topo;

	if (err == 0 && untabled)
		sampler_set_status(s, SLOT_TOPOLOGY, "no SMT table for this processor (%s), whose "
				   "cores have up to %d threads: each thread is counted as a core (a "
				   "model line in the configuration names a table)",
				   s->cpuinfo.cpu_name[0] ? s->cpuinfo.cpu_name :
				   cpuinfo_arch_name(s->cpuinfo.arch), t->max_threads);
	else if (err == 0 && (t->online_per_cpu || t->sibling_masks))
		sampler_set_status(s, SLOT_TOPOLOGY, "ok, from an older kernel's files: %s%s%s",
				   t->online_per_cpu ? "each cpuN/online (no cpu/online list)" : "",
				   t->online_per_cpu && t->sibling_masks ? "; " : "",
				   t->sibling_masks ? "the thread_siblings masks (no "
				   "thread_siblings_list)" : "");
	else if (err == 0)
		sampler_set_status(s, SLOT_TOPOLOGY, "ok");
	else if (err == EINVAL)
		sampler_set_status(s, SLOT_TOPOLOGY, "/sys/devices/system/cpu/online is not a CPU "
				   "list: every possible CPU is taken as online");
	else
		sampler_set_status(s, SLOT_TOPOLOGY, "cannot read /sys/devices/system/cpu/online: %s; "
				   "the CPUs seen last are kept", err == EFBIG ?
				   "longer than a CPU list can be" : strerror(err));
}

/* Remembers which core each CPU is on, to see what a rescan changed. */
static void note_membership(struct sampler *s)
{
	for (int cpu = 0; cpu < s->topo.ncpus; cpu++)
		s->last_core[cpu] = -1;
	for (int i = 0; i < s->topo.ncores; i++) {
		const struct topo_core *c = &s->topo.cores[i];
		s->core[c->first_cpu].nthreads = c->nthreads;
		for (int t = 0; t < c->nthreads; t++)
			s->last_core[c->cpus[t]] = c->first_cpu;
	}
}

/*
 * After a rescan, a core whose threads changed (SMT mode change, a CPU
 * offline or back) counts the window that holds the change for the threads
 * online throughout, whose baselines stay: it mixes two make-ups, so its
 * bounds allow for either (core_account.c).  A thread new to the core starts
 * its baselines then.  Other cores carry on.
 */
static void restart_changed_cores(struct sampler *s)
{
	for (int cpu = 0; cpu < s->topo.ncpus; cpu++)
		if (s->last_core[cpu] >= 0 && s->topo.core_of[cpu] < 0) {
			s->departed[cpu] = s->last_core[cpu];
			s->cpu[cpu].have_prev = false;
		}
	for (int i = 0; i < s->topo.ncores; i++) {
		const struct topo_core *c = &s->topo.cores[i];
		struct smt_core_values *cv = &s->core[c->first_cpu];
		int changed = cv->nthreads != c->nthreads, before = 0;

		for (int t = 0; t < c->nthreads; t++)
			changed |= s->last_core[c->cpus[t]] != c->first_cpu;
		if (!changed)
			continue;
		for (int t = 0; t < c->nthreads; t++) {
			int was = s->last_core[c->cpus[t]];

			if (was < 0)
				s->cpu[c->cpus[t]].have_prev = false;
			else if (s->core[was].nthreads > before)
				before = s->core[was].nthreads;
		}
		cv->step_threads = before > c->nthreads ? before : c->nthreads;
		cv->have_level = false;
	}
	note_membership(s);
}

static void assign_tables(struct sampler *s)
{
	for (int i = 0; i < s->topo.ncores; i++) {
		const struct topo_core *c = &s->topo.cores[i];
		s->core[c->first_cpu].table = smt_table_for(&s->config, &s->cpuinfo, c->nthreads);
	}
	s->untabled_cores = cores_without_table(s);	/* (for the status, each pass) */
}

int sampler_init(struct sampler *s, const struct sampler_source *const *sources, int nsources,
		 const char *config_path, int config_optional)
{
	long hz = sysconf(_SC_CLK_TCK);
	int sts, n, failed = 0;

	memset(s, 0, sizeof *s);
	s->stat.fd = -1;
	name_statuses(s, sources, nsources);
	s->ms_per_tick = 1000.0 / (hz > 0 ? (double)hz : 100.0);

	sts = config_load(&s->config, config_path, config_optional);
	if (sts == 0)
		sampler_set_status(s, SLOT_CONFIG, "ok");
	else if (s->config.nerrors == 1)
		sampler_set_status(s, SLOT_CONFIG, "%s", s->config.first_error);
	else
		sampler_set_status(s, SLOT_CONFIG, "%s (and %d more errors)", s->config.first_error,
			   s->config.nerrors - 1);

	if ((sts = cpuinfo_read(&s->cpuinfo)) < 0) {
		char why[64];
		smt_log(SMT_LOG_WARNING, "/proc/cpuinfo: %s; SMT tables chosen as for an "
			"unknown processor", rf_strerror(sts, CPUINFO_MAX_BYTES, why, sizeof why));
	}
	if ((sts = topology_init(&s->topo)) < 0) {
		sampler_set_status(s, SLOT_TOPOLOGY, "no CPUs under /sys/devices/system/cpu: %s",
				   strerror(-sts));
	} else {
		s->topo.split_compute_units = cpuinfo_has_compute_units(&s->cpuinfo);
		if (s->config.nsiblings) {
			s->topo.sibling_sets = s->config.siblings;
			s->topo.nsibling_sets = s->config.nsiblings;
		}
		if (s->config.nsiblings || s->topo.split_compute_units)
			topology_scan(&s->topo);
	}
	n = s->topo.ncpus > 0 ? s->topo.ncpus : 1;
	s->cpu = calloc((size_t)n, sizeof *s->cpu);
	s->core = calloc((size_t)n, sizeof *s->core);
	s->last_core = calloc((size_t)n, sizeof *s->last_core);
	s->departed = malloc((size_t)n * sizeof *s->departed);
	if (s->departed)
		for (int cpu = 0; cpu < n; cpu++)
			s->departed[cpu] = -1;
	if (s->cpu == NULL || s->core == NULL || s->last_core == NULL || s->departed == NULL)
		return -ENOMEM;
	note_membership(s);
	assign_tables(s);
	if (s->topo.ncpus > 0)
		topology_status(s);
	/* A source that cannot start says why in its status; the others and
	 * /proc/stat go on all the same. */
	for (int i = 0; i < s->nsources; i++) {
		const struct sampler_source *src = s->source[i];

		if ((s->state[i] = calloc(1, src->state_size ? src->state_size : 1)) == NULL) {
			smt_log(SMT_LOG_ERROR, "%s: out of memory; its values are not served", src->name);
			failed = failed ? failed : -ENOMEM;
			continue;
		}
		if ((sts = src->init(&s->ctx[i], s->state[i])) < 0) {
			/* Its state stays, blank, for whoever reads what it publishes;
			 * it is neither synced nor read. */
			smt_log(SMT_LOG_ERROR, "%s: %s; its values are not served", src->name,
				strerror(-sts));
			src->free(&s->ctx[i], s->state[i]);
			memset(s->state[i], 0, src->state_size ? src->state_size : 1);
			s->stopped[i] = true;
			failed = failed ? failed : sts;
		}
	}

	if ((sts = cpustat_open(&s->stat, s->topo.ncpus)) < 0) {
		sampler_set_status(s, SLOT_CPUSTAT, "cannot open /proc/stat: %s", strerror(-sts));
		return sts;
	}
	sampler_set_status(s, SLOT_CPUSTAT, "ok");
	return failed;
}

bool sampler_usable(const struct sampler *s)
{
	return s->cpu != NULL && s->core != NULL && s->last_core != NULL && s->departed != NULL;
}

void sampler_free(struct sampler *s)
{
	cpustat_close(&s->stat);
	for (int i = s->nsources - 1; i >= 0; i--)
		if (s->state[i]) {
			if (!s->stopped[i])
				s->source[i]->free(&s->ctx[i], s->state[i]);
			free(s->state[i]);
		}
	topology_free(&s->topo);
	free(s->cpu);
	free(s->core);
	free(s->last_core);
	free(s->departed);
	memset(s, 0, sizeof *s);
}

int sampler_pass(struct sampler *s)
{
	double start = mono_seconds();
	int changed = topology_refresh(&s->topo), sts;

	if (changed) {
		restart_changed_cores(s);
		assign_tables(s);
		for (int i = 0; i < s->nsources; i++)
			if (s->source[i]->sync && s->state[i] && !s->stopped[i])
				s->source[i]->sync(&s->ctx[i], s->state[i]);
	}
	topology_status(s);
	for (int i = 0; i < s->nsources; i++)
		if (s->state[i] && !s->stopped[i])
			s->source[i]->read(&s->ctx[i], s->state[i], changed);
	sampler_find_bases(s);
	if (changed)
		sampler_count_departed(s);
	if ((sts = cpustat_read(&s->stat)) < 0) {
		if (sts == -EFBIG)
			sampler_set_status(s, SLOT_CPUSTAT, "cannot read /proc/stat: its per-CPU "
					   "lines run past %zu bytes", cpustat_bound(&s->stat));
		else
			sampler_set_status(s, SLOT_CPUSTAT, "cannot read /proc/stat: %s",
					   strerror(-sts));
	} else {
		if (sts == 0)
			sampler_set_status(s, SLOT_CPUSTAT, "no per-CPU lines in /proc/stat");
		else
			sampler_set_status(s, SLOT_CPUSTAT, "ok");
		for (int i = 0; i < s->topo.ncores; i++)
			sampler_count_core(s, &s->topo.cores[i]);
		s->basis_turned_on = false;	/* every core has started again */
	}
	s->passes++;
	s->pass_time += mono_seconds() - start;
	return changed;
}

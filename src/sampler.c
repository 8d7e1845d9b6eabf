#include "sampler.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "monoclock.h"
#include "modelchoice.h"
#include "readfile.h"
#include "source.h"
#include "sysroot.h"

static const char *const own_status_names[SRC_COUNT] = { "cpustat", "config", "topology" };

void sampler_set_status(struct sampler *s, enum smt_source src, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->status[src], sizeof s->status[src], fmt, ap);
	va_end(ap);
}

const char *sampler_status(const struct sampler *s, const char *name)
{
	for (int i = 0; i < s->nstatus; i++)
		if (strcmp(s->status_name[i], name) == 0)
			return s->status[i];
	return NULL;
}

/* The status instances: the sampler's own, then each source's, whose
 * first slot and table entry the sampler notes for source.c to find. */
static void name_statuses(struct sampler *s)
{
	for (int i = 0; i < SRC_COUNT; i++)
		s->status_name[s->nstatus++] = own_status_names[i];
	for (int i = 0; i < sampler_nsources && i < SOURCE_MAX; i++) {
		s->source[i] = sampler_sources[i];
		s->status_base[i] = s->nstatus;
		for (int k = 0; k < sampler_sources[i]->nstatus && s->nstatus < SOURCE_MAX_STATUS; k++)
			s->status_name[s->nstatus++] = sampler_sources[i]->status_names[k];
	}
	s->nsources = sampler_nsources < SOURCE_MAX ? sampler_nsources : SOURCE_MAX;
}

const struct smt_table *sampler_table_for(const struct sampler *s, int nthreads)
{
	const struct smt_table *t = NULL;

	if (s->config.model[0])
		t = config_find_table(&s->config, s->config.model);
	if (t == NULL)
		t = config_find_table(&s->config, smt_choose_model(&s->cpuinfo, nthreads));
	return t;
}

static void topology_status(struct sampler *s)
{
	int err = s->topo.online_error;

	if (err == 0)
		sampler_set_status(s, SRC_TOPOLOGY, "ok");
	else if (err == EINVAL)
		sampler_set_status(s, SRC_TOPOLOGY, "/sys/devices/system/cpu/online is not a CPU "
				   "list: every possible CPU is taken as online");
	else
		sampler_set_status(s, SRC_TOPOLOGY, "cannot read /sys/devices/system/cpu/online: %s; "
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
 * offline or back) starts its baselines again: the window that spans the
 * change mixes two make-ups and two tables, so it is not counted.  Other
 * cores carry on.
 */
static void restart_changed_cores(struct sampler *s)
{
	for (int i = 0; i < s->topo.ncores; i++) {
		const struct topo_core *c = &s->topo.cores[i];
		struct smt_core_values *cv = &s->core[c->first_cpu];
		int changed = cv->nthreads != c->nthreads;

		for (int t = 0; t < c->nthreads; t++)
			changed |= s->last_core[c->cpus[t]] != c->first_cpu;
		if (!changed)
			continue;
		for (int t = 0; t < c->nthreads; t++)
			s->cpu[c->cpus[t]].have_prev = false;
		cv->have_level = false;
	}
	note_membership(s);
}

static void assign_tables(struct sampler *s)
{
	for (int i = 0; i < s->topo.ncores; i++) {
		const struct topo_core *c = &s->topo.cores[i];
		s->core[c->first_cpu].table = sampler_table_for(s, c->nthreads);
	}
}

int sampler_init(struct sampler *s, const char *config_path, int config_optional)
{
	long hz = sysconf(_SC_CLK_TCK);
	int sts, n, failed = 0;

	memset(s, 0, sizeof *s);
	s->stat.fd = -1;
	name_statuses(s);
	s->ms_per_tick = 1000.0 / (hz > 0 ? (double)hz : 100.0);

	sts = config_load(&s->config, config_path, config_optional);
	if (sts == 0)
		sampler_set_status(s, SRC_CONFIG, "ok");
	else if (s->config.nerrors == 1)
		sampler_set_status(s, SRC_CONFIG, "%s", s->config.first_error);
	else
		sampler_set_status(s, SRC_CONFIG, "%s (and %d more errors)", s->config.first_error,
			   s->config.nerrors - 1);

	if ((sts = cpuinfo_read(&s->cpuinfo)) < 0) {
		char why[64];
		smt_log(SMT_LOG_WARNING, "/proc/cpuinfo: %s; SMT tables chosen as for an "
			"unknown processor", rf_strerror(sts, CPUINFO_MAX_BYTES, why, sizeof why));
	}
	if ((sts = topology_init(&s->topo)) < 0) {
		sampler_set_status(s, SRC_TOPOLOGY, "no CPUs under /sys/devices/system/cpu: %s",
				   strerror(-sts));
	} else {
		if (s->config.nsiblings) {
			s->topo.sibling_sets = s->config.siblings;
			s->topo.nsibling_sets = s->config.nsiblings;
			topology_scan(&s->topo);
		}
		topology_status(s);
	}
	n = s->topo.ncpus > 0 ? s->topo.ncpus : 1;
	s->cpu = calloc((size_t)n, sizeof *s->cpu);
	s->core = calloc((size_t)n, sizeof *s->core);
	s->last_core = calloc((size_t)n, sizeof *s->last_core);
	if (s->cpu == NULL || s->core == NULL || s->last_core == NULL)
		return -ENOMEM;
	note_membership(s);
	assign_tables(s);
	/* A source that cannot start says why in its status; the others and
	 * /proc/stat go on all the same. */
	for (int i = 0; i < sampler_nsources && i < SOURCE_MAX; i++) {
		const struct sampler_source *src = sampler_sources[i];

		if ((s->state[i] = calloc(1, src->state_size ? src->state_size : 1)) == NULL) {
			smt_log(SMT_LOG_ERROR, "%s: out of memory; its values are not served", src->name);
			failed = failed ? failed : -ENOMEM;
			continue;
		}
		if ((sts = src->init(s, s->state[i])) < 0) {
			/* Its state stays, blank, for whoever reads what it publishes;
			 * it is neither synced nor read. */
			smt_log(SMT_LOG_ERROR, "%s: %s; its values are not served", src->name,
				strerror(-sts));
			src->free(s, s->state[i]);
			memset(s->state[i], 0, src->state_size ? src->state_size : 1);
			s->stopped[i] = true;
			failed = failed ? failed : sts;
		}
	}

	if ((sts = cpustat_open(&s->stat, s->topo.ncpus)) < 0) {
		sampler_set_status(s, SRC_CPUSTAT, "cannot open /proc/stat: %s", strerror(-sts));
		return sts;
	}
	sampler_set_status(s, SRC_CPUSTAT, "ok");
	return failed;
}

bool sampler_usable(const struct sampler *s)
{
	return s->cpu != NULL && s->core != NULL && s->last_core != NULL;
}

void sampler_free(struct sampler *s)
{
	cpustat_close(&s->stat);
	for (int i = sampler_nsources - 1; i >= 0; i--)
		if (i < SOURCE_MAX && s->state[i]) {
			if (!s->stopped[i])
				sampler_sources[i]->free(s, s->state[i]);
			free(s->state[i]);
		}
	topology_free(&s->topo);
	free(s->cpu);
	free(s->core);
	free(s->last_core);
	memset(s, 0, sizeof *s);
}

/* Moves the baselines of every thread of a core that has a reading now. */
static void rebase_core(struct sampler *s, const struct topo_core *c)
{
	for (int j = 0; j < c->nthreads; j++) {
		int cpu = c->cpus[j];
		struct smt_cpu_values *v = &s->cpu[cpu];

		if (s->stat.seen[cpu]) {
			v->prev = s->stat.now[cpu];
			v->have_prev = true;
		}
		memcpy(v->win_purr, v->purr, sizeof v->win_purr);
		v->win_purr_ok = v->purr_have[PURR];
		v->win_sched_clock = v->sched_clock;
		v->win_sched_ok = v->sched_fresh;
		v->win_hw_clock = v->hw_clock;
		v->win_hw_unhalted = v->hw_unhalted;
		v->win_hw_ok = v->hw_fresh;
	}
}

/* How much PURR a core's window can use: 0 none, 1 purr, 2 purr and
 * idle_purr, for every thread. */
static int core_purr_files(const struct sampler *s, const struct topo_core *c)
{
	int files = 2;

	for (int i = 0; i < c->nthreads && files; i++) {
		const struct smt_cpu_values *v = &s->cpu[c->cpus[i]];
		if (!v->purr_open[PURR])
			files = 0;
		else if (!v->purr_open[IDLE_PURR])
			files = 1;
	}
	return files;
}

struct thread_window {
	double busy, window;		/* /proc/stat ticks */
	double mode[PMODE_COUNT];	/* /proc/stat ticks by PURR mode */
	double purr, idle_purr;		/* timebase ticks; idle_purr < 0 if unknown */
	double sched;			/* software PURR, ms; < 0 if not measured */
	double hw;			/* Intel's overlap counters, ms; < 0 if not measured */
};

/*
 * Deltas for every online thread of a core, or 0 when the window cannot be
 * used.  The model needs one window for all threads of a core, and PURR is
 * shared out over the same window as /proc/stat, so:
 *  - a thread without a reading this pass (malformed line or PURR file), or
 *    no time passed on /proc/stat's clock (passes within one USER_HZ tick):
 *    the window is held over, baselines stay, and the next pass covers both,
 *    so what PURR or the software PURR counted meanwhile is not lost;
 *  - a thread new to the core, or a counter gone backwards: every baseline of
 *    the core starts again from now, and this one window is not counted.
 */
static int core_window(struct sampler *s, const struct topo_core *c, int purr_files,
		       struct thread_window *w)
{
	double elapsed = 0;

	for (int i = 0; i < c->nthreads; i++) {
		int cpu = c->cpus[i];
		const struct smt_cpu_values *v = &s->cpu[cpu];
		const struct cpustat_times *now = &s->stat.now[cpu];
		const uint64_t *f, *p;

		if (!s->stat.seen[cpu] || (purr_files >= 1 && !v->purr_fresh[PURR]) ||
		    (purr_files == 2 && !v->purr_fresh[IDLE_PURR]))
			return 0;
		if (!v->have_prev || (purr_files && !v->win_purr_ok)) {
			rebase_core(s, c);
			return 0;
		}
		for (int k = 0; k < CS_NFIELDS; k++)
			if (now->field[k] < v->prev.field[k]) {
				smt_log_once(SMT_LOG_WARNING, "cpu%d: /proc/stat times went backwards; "
					     "counting starts again from the new values", cpu);
				rebase_core(s, c);
				return 0;
			}
		w[i].busy = (double)(cpustat_busy(now) - cpustat_busy(&v->prev));
		w[i].window = (double)(cpustat_window(now) - cpustat_window(&v->prev));
		f = now->field;
		p = v->prev.field;
		w[i].mode[PMODE_USER] = (double)(f[CS_USER] + f[CS_NICE] - p[CS_USER] - p[CS_NICE]);
		w[i].mode[PMODE_SYS] = (double)(f[CS_SYSTEM] + f[CS_IRQ] + f[CS_SOFTIRQ] -
						p[CS_SYSTEM] - p[CS_IRQ] - p[CS_SOFTIRQ]);
		w[i].mode[PMODE_WAIT] = (double)(f[CS_IOWAIT] - p[CS_IOWAIT]);
		w[i].mode[PMODE_IDLE] = (double)(f[CS_IDLE] - p[CS_IDLE]);
		w[i].purr = (double)(v->purr[PURR] - v->win_purr[PURR]);
		w[i].idle_purr = purr_files == 2 ?
			(double)(v->purr[IDLE_PURR] - v->win_purr[IDLE_PURR]) : -1;
		w[i].sched = v->sched_fresh && v->win_sched_ok ?
			(double)(v->sched_clock - v->win_sched_clock) / 1e6 : -1;
		/* The counters' calibrated share of the thread's unhalted time,
		 * applied to its busy time: the crystal's rate need not be known. */
		double unhalted = v->hw_unhalted - v->win_hw_unhalted;
		w[i].hw = !(v->hw_fresh && v->win_hw_ok) ? -1 : unhalted <= 0 ? 0 :
			  (v->hw_clock - v->win_hw_clock) / unhalted * w[i].busy * s->ms_per_tick;
		elapsed += w[i].window;
	}
	if (elapsed <= 0)
		return 0;
	rebase_core(s, c);
	return 1;
}

/* Shares each thread's PURR over the window out by mode. */
static void split_purr(struct sampler *s, const struct topo_core *c, const struct thread_window *w)
{
	double out[PMODE_COUNT];

	for (int i = 0; i < c->nthreads; i++) {
		struct smt_cpu_values *v = &s->cpu[c->cpus[i]];

		purr_split(w[i].purr, w[i].idle_purr, w[i].mode, out);
		for (int m = 0; m < PMODE_COUNT; m++) {
			v->purr_mode[m] += out[m];
			s->all_purr_mode[m] += out[m];
		}
	}
}

static void sample_core(struct sampler *s, const struct topo_core *c)
{
	struct thread_window w[SMT_MAX_THREADS];
	double b[SMT_MAX_THREADS];
	struct smt_core_values *cv = &s->core[c->first_cpu];
	struct smt_core_estimate e;
	double mean_window = 0, level = 0;
	int n = c->nthreads, purr_files = core_purr_files(s, c);
	int use_purr = purr_files == 2 && s->purr_basis;	/* every thread has both files */
	int use_sched = !use_purr, use_hw;

	if (!core_window(s, c, purr_files, w))
		return;
	for (int i = 0; i < n; i++)
		use_sched &= w[i].sched >= 0;
	use_hw = !use_purr && !use_sched;
	for (int i = 0; i < n; i++)
		use_hw &= w[i].hw >= 0;
	for (int i = 0; i < n; i++) {
		b[i] = w[i].window > 0 ? w[i].busy / w[i].window : 0;
		mean_window += w[i].window / n;
		level += b[i] > 1 ? 1 : b[i];
	}
	if (purr_files)
		split_purr(s, c, w);
	smt_estimate_core(cv->table, b, n, &e);

	/* A core's estimate is the sum of its threads' (each over its own
	 * window); its bounds and capacity are the core's own, over the mean.
	 * PURR measures: its busy share is the value, and the bounds close on
	 * it. */
	double core_ms = mean_window * s->ms_per_tick, est = 0, model = 0;
	double lo = e.core_lo * core_ms, hi = e.core_hi * core_ms, cap = e.capacity * core_ms;
	double tb_ms = s->cpuinfo.timebase ? 1000.0 / (double)s->cpuinfo.timebase : 0;

	for (int i = 0; i < n; i++) {
		struct smt_cpu_values *v = &s->cpu[c->cpus[i]];
		double ms = w[i].window * s->ms_per_tick, m = e.est[i] * ms;

		model += m;
		v->busy += w[i].busy * s->ms_per_tick;
		v->elapsed += ms;
		if (w[i].hw >= 0) {	/* exported whatever the basis, to compare */
			v->hw_throughput += w[i].hw;
			v->have_hw = true;
		}
		if (use_purr) {
			double idle = w[i].idle_purr < w[i].purr ? w[i].idle_purr : w[i].purr;
			double measured = (w[i].purr - idle) * tb_ms;
			v->throughput += measured;
			v->lower += measured;
			v->upper += measured;
			v->basis = BASIS_PURR;
			est += measured;
		} else if (use_sched || use_hw) {
			double measured = use_sched ? w[i].sched : w[i].hw;
			v->throughput += measured;
			v->lower += measured;
			v->upper += measured;
			v->basis = use_sched ? BASIS_SCHED : BASIS_HW;
			est += measured;
		} else {
			v->throughput += m;
			v->lower += e.lo[i] * ms;
			v->upper += e.hi[i] * ms;
			v->basis = BASIS_MODEL;
			est += m;
		}
	}
	if (use_purr) {
		lo = hi = est;
		cap = core_ms;	/* PURR shares out the whole core */
	} else if (use_sched || use_hw) {
		lo = hi = est;	/* measured; the capacity is the model's */
	}
	if (use_purr || use_sched || use_hw)
		cv->model_error = (model - est) / core_ms;
	cv->have_error = use_purr || use_sched || use_hw;
	cv->basis = use_purr ? BASIS_PURR : use_sched ? BASIS_SCHED : use_hw ? BASIS_HW : BASIS_MODEL;
	cv->model_cpu += model;
	cv->throughput += est;
	cv->lower += lo;
	cv->upper += hi;
	cv->capacity += cap;
	cv->level = level;
	cv->have_level = true;
	cv->counted = true;
	s->all.throughput += est;
	s->all.lower += lo;
	s->all.upper += hi;
	s->all.capacity += cap;
}

int sampler_pass(struct sampler *s)
{
	double start = mono_seconds();
	int changed = topology_refresh(&s->topo), sts;

	topology_status(s);
	if (changed) {
		restart_changed_cores(s);
		assign_tables(s);
		for (int i = 0; i < sampler_nsources; i++)
			if (sampler_sources[i]->sync && s->state[i] && !s->stopped[i])
				sampler_sources[i]->sync(s, s->state[i]);
	}
	for (int i = 0; i < sampler_nsources; i++)
		if (s->state[i] && !s->stopped[i])
			sampler_sources[i]->read(s, s->state[i], changed);
	if ((sts = cpustat_read(&s->stat)) < 0) {
		if (sts == -EFBIG)
			sampler_set_status(s, SRC_CPUSTAT, "cannot read /proc/stat: its per-CPU "
					   "lines run past %zu bytes", cpustat_bound(&s->stat));
		else
			sampler_set_status(s, SRC_CPUSTAT, "cannot read /proc/stat: %s",
					   strerror(-sts));
	} else {
		if (sts == 0)
			sampler_set_status(s, SRC_CPUSTAT, "no per-CPU lines in /proc/stat");
		else
			sampler_set_status(s, SRC_CPUSTAT, "ok");
		for (int i = 0; i < s->topo.ncores; i++)
			sample_core(s, &s->topo.cores[i]);
	}
	s->passes++;
	s->pass_time += mono_seconds() - start;
	return changed;
}

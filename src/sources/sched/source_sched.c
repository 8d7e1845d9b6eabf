#include "source_sched.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "highwater.h"
#include "log.h"
#include "modelchoice.h"
#include "sched_charges.h"
#include "source.h"
#include "sysroot.h"

static const char *const status_names[] = { "sched" };

static void status(const struct source_ctx *ctx, const char *fmt, const char *why)
{
	source_set_status(ctx, 0, fmt, why);
}

/* Whether a core's threads are not the CPUs the program has for it: one
 * moved, or one went. */
static bool core_changed(const struct sched_state *st, const struct topo_core *c)
{
	if (st->cpu[c->first_cpu].nmapped != c->nthreads)
		return true;
	for (int t = 0; t < c->nthreads; t++)
		if (st->cpu[c->cpus[t]].core != c->first_cpu || st->cpu[c->cpus[t]].slot != t)
			return true;
	return false;
}

/* Adds a CPU's growth since its last reading to its clocks; false where they
 * started again (the caller starts counting from this reading). */
static bool add_reading(struct sched_state *st, int cpu, uint64_t clock, uint64_t busy)
{
	struct sched_cpu *c = &st->cpu[cpu];
	uint64_t dc = highwater_advance(&c->last_clock, clock, SCHED_BACK_SLACK_NS);
	uint64_t db = highwater_advance(&c->last_busy, busy, SCHED_BACK_SLACK_NS);

	if (dc == HIGHWATER_RESTARTED || db == HIGHWATER_RESTARTED) {
		smt_log_once(SMT_LOG_WARNING, "cpu%d: the software PURR's clocks went back over a "
			     "second; counting starts again from the new values", cpu);
		return false;
	}
	c->clk.clock += dc;
	c->clk.busy += db;
	return true;
}

/*
 * Before the program starts a changed core afresh, each of its CPUs that
 * was counted and stays online adds what its clock grew since the last
 * reading, and then counts from 0 on the new core; one gone offline adds
 * its last stretch, and is read for this pass (the sampler counts it as it
 * leaves).  So a window that holds a CPU going offline or back loses
 * nothing.  The first sweep has just closed the spells under way.
 * cpus[0, staying) stay online; the rest of the n go.
 */
static void fold_before_reset(struct sched_state *st, const int *cpus, int staying, int n)
{
	bool read = sched_purr_read_cores(&st->sp) >= 0;

	for (int i = 0; i < n; i++) {
		struct sched_cpu *c = &st->cpu[cpus[i]];
		uint64_t clock, busy, sc, sb;

		if (!read || c->core < 0 || !c->have_last) {
			c->have_last = false;
			c->clk.win_ok = false;
			continue;
		}
		sched_purr_thread_now(&st->sp, c->core, c->slot, &clock, &busy, &sc, &sb);
		/* A CPU gone runs nothing: a spell its slot still has under way
		 * is a switch to idle the kernel did not trace as it went, and
		 * no process is charged for it either. */
		if (i >= staying) {
			clock -= sc;
			busy -= sb;
		}
		if (!add_reading(st, cpus[i], clock, busy)) {
			c->have_last = false;
			c->clk.win_ok = false;	/* (what it counted is not known) */
			continue;
		}
		if (i >= staying)
			c->clk.fresh = c->clk.read = true;
	}
}

static double monotonic_seconds(void)
{
	struct timespec ts;

	return clock_gettime(CLOCK_MONOTONIC, &ts) == 0 ? (double)ts.tv_sec + ts.tv_nsec / 1e9 : 0.0;
}

/* Tells the program which CPUs make each core.  A core whose threads
 * changed starts afresh: its CPUs are swept first, so the spells under way
 * there are charged under the old make-up rather than lost with it, and
 * their clocks read (fold_before_reset), then again, so each thread learns
 * whether it is busy. */
static void map_cores(const struct source_ctx *ctx, struct sched_state *st)
{
	int nsweep = 0, ngoing = 0, nchanged = 0, err = 0, sts;
	double began = 0;

	for (int cpu = 0; cpu < st->ncpus; cpu++)
		st->cpu[cpu].nmapped = 0;
	for (int cpu = 0; cpu < st->ncpus; cpu++)
		if (st->cpu[cpu].core >= 0)
			st->cpu[st->cpu[cpu].core].nmapped++;
		else		/* (what a CPU that went before was read as) */
			st->cpu[cpu].clk.fresh = st->cpu[cpu].clk.read = false;
	for (int i = 0; i < ctx->topo->ncores; i++) {
		const struct topo_core *c = &ctx->topo->cores[i];

		if (core_changed(st, c)) {
			nchanged++;
			for (int t = 0; t < c->nthreads; t++)
				st->sweep[nsweep++] = c->cpus[t];
		}
	}
	for (int cpu = 0; cpu < st->ncpus; cpu++)
		if (!ctx->topo->online[cpu] && st->cpu[cpu].core >= 0)
			st->sweep[nsweep + ngoing++] = cpu;
	if (nchanged + ngoing > 0)	/* (read only for a change: a pass mostly has none) */
		began = monotonic_seconds();
	if ((sts = sched_purr_sweep(&st->sp, st->sweep, nsweep)) < 0)
		err = sts;
	if (nsweep + ngoing > 0)
		fold_before_reset(st, st->sweep, nsweep, nsweep + ngoing);
	for (int i = 0; i < ctx->topo->ncores; i++) {
		const struct topo_core *c = &ctx->topo->cores[i];

		if ((sts = sched_purr_set_shares(&st->sp, c->first_cpu, smt_table_for(ctx->config, ctx->cpuinfo, c->nthreads))) < 0)
			err = sts;
		if (!core_changed(st, c))
			continue;
		if ((sts = sched_purr_reset_core(&st->sp, c->first_cpu)) < 0)
			err = sts;
		/* The core starts afresh: its threads' clocks count from 0.  One
		 * new to it is measured from here (a continuing one's window, its
		 * growth folded, goes on). */
		for (int t = 0; t < c->nthreads; t++) {
			struct sched_cpu *k = &st->cpu[c->cpus[t]];
			if ((sts = sched_purr_map_cpu(&st->sp, c->cpus[t], c->first_cpu, t)) < 0)
				err = sts;
			if (!k->have_last) {
				k->clk.win_clock = k->clk.clock;
				k->clk.win_ok = true;
			}
			k->have_last = true;
			k->last_clock = k->last_busy = 0;
			k->last_missed = 0;
			k->core = c->first_cpu;
			k->slot = t;
		}
	}
	for (int cpu = 0; cpu < st->ncpus; cpu++)
		if (!ctx->topo->online[cpu] && st->cpu[cpu].core >= 0) {
			if ((sts = sched_purr_map_cpu(&st->sp, cpu, -1, 0)) < 0)
				err = sts;
			st->cpu[cpu].core = st->cpu[cpu].slot = -1;
			st->cpu[cpu].have_last = false;
		}
	if ((sts = sched_purr_sweep(&st->sp, st->sweep, nsweep)) < 0)
		err = sts;
	/* When, on the clock the program stamps switches with: an operator (or a
	 * test, against the kernel's trace) can then tell which time was
	 * counted under which make-up of the core. */
	if (nchanged + ngoing > 0)
		smt_log(SMT_LOG_INFO, "sched: %d core(s) given their CPUs anew, %d CPU(s) taken out, "
			"between CLOCK_MONOTONIC %.6f and %.6f s", nchanged, ngoing, began, monotonic_seconds());
	st->map_error = err;
	if (err < 0) {
		char why[128];
		snprintf(why, sizeof why, "cannot tell the program the cores: %s", strerror(-err));
		smt_log_once(SMT_LOG_WARNING, "sched: %s", why);
		status(ctx, "%s", why);
	}
}

/* What init took, given back (the source's free does the same at the end). */
static void release(struct sched_state *st)
{
	free(st->cpu);
	st->cpu = NULL;
	st->sweep = NULL;
}

/* The software PURR stays off, and says why; everything else goes on. */
static int stay_off(const struct source_ctx *ctx, struct sched_state *st, const char *why)
{
	release(st);
	smt_log(SMT_LOG_WARNING, "sched: %s; SMT overlap is modelled, not measured", why);
	status(ctx, "%s", why);
	return 0;
}

static int sched_source_init(const struct source_ctx *ctx, void *state)
{
	struct sched_state *st = state;
	char why[256];
	int n = ctx->topo->ncpus > 0 ? ctx->topo->ncpus : 1, sts;

	st->ncpus = n;
	st->retire_ns = ctx->config->retire_ms * 1000000ULL;
	if (!ctx->config->sched) {
		status(ctx, "%s", "off (\"sched off\" in the configuration file)");
		return 0;
	}
	if (strcmp(sr_root(), "/") != 0) {
		status(ctx, "off: the root %s is not this machine's, whose scheduler it would measure",
		       sr_root());
		return 0;
	}
	/* The sweep list's ints follow the structs, whose alignment suits them. */
	if ((st->cpu = calloc((size_t)n, sizeof *st->cpu + sizeof *st->sweep)) == NULL) {
		snprintf(why, sizeof why, "off: out of memory for the software PURR's %d CPUs", n);
		return stay_off(ctx, st, why);
	}
	st->sweep = (int *)(st->cpu + n);
	for (int cpu = 0; cpu < n; cpu++)
		st->cpu[cpu].core = st->cpu[cpu].slot = -1;
	/* Refused, or out of memory loading it: the program is off, not the agent. */
	if ((sts = sched_purr_open(&st->sp, n, ctx->config->processes, why, sizeof why)) < 0)
		return stay_off(ctx, st, why);
	st->on = true;
	sched_charges_open(st);
	status(ctx, "%s", "ok");
	map_cores(ctx, st);
	return 0;
}

static void sched_source_sync(const struct source_ctx *ctx, void *state)
{
	struct sched_state *st = state;

	if (st->on)
		map_cores(ctx, st);
}

/* Per CPU: the clocks become the measured basis "sched", by increments. */
static void read_cpus(const struct source_ctx *ctx, struct sched_state *st)
{
	for (int cpu = 0; cpu < st->ncpus; cpu++)
		if (st->cpu[cpu].core >= 0)	/* (one that just went keeps its last) */
			st->cpu[cpu].clk.fresh = st->cpu[cpu].clk.read = false;
	for (int i = 0; i < ctx->topo->ncores; i++) {
		const struct topo_core *c = &ctx->topo->cores[i];

		for (int t = 0; t < c->nthreads; t++) {
			struct sched_cpu *k = &st->cpu[c->cpus[t]];
			uint64_t clock, busy, sc, sb;

			if (k->core != c->first_cpu || k->slot != t)
				continue;
			const struct sp_thread *th = &st->sp.core[c->first_cpu].t[t];

			sched_purr_thread_now(&st->sp, c->first_cpu, t, &clock, &busy, &sc, &sb);
			sched_charges_add_thread(st, th, sc, sb);
			k->clk.read = true;
			if (k->have_last && add_reading(st, c->cpus[t], clock, busy)) {
				k->clk.fresh = true;
			} else {
				k->last_clock = clock;
				k->last_busy = busy;
			}
			if (k->have_last && th->missed >= k->last_missed)
				st->missed += th->missed - k->last_missed;
			k->last_missed = th->missed;
			k->have_last = true;
		}
	}
}

static void sched_source_read(const struct source_ctx *ctx, void *state, bool cpus_changed)
{
	struct sched_state *st = state;
	int sts, ntasks, ncgroups;

	(void)cpus_changed;
	if (!st->on)
		return;
	/* Charged spells first, then the cores: a spell that ends between the
	 * two reads is missed rather than counted twice.  Read again while a
	 * charge moved across them (a few tries: under a storm of switches
	 * some CPU always moves one, and what moved comes back next pass). */
	for (int attempt = 1;; attempt++) {
		bool flow = sched_purr_read_flow(&st->sp, 0) >= 0;

		sched_charges_read_maps(st, &ntasks, &ncgroups);
		if ((sts = sched_purr_read_cores(&st->sp)) < 0)
			break;
		flow = flow && sched_purr_read_flow(&st->sp, 1) >= 0;
		if (flow && sched_purr_settled(&st->sp))
			break;
		if (attempt == SCHED_READ_TRIES) {
			st->unsettled++;
			break;
		}
		st->rereads++;
	}
	sched_charges_note_maps(st, ntasks, ncgroups);
	if (sts < 0) {
		char why[128];
		snprintf(why, sizeof why, "cannot read the program's cores map: %s", strerror(-sts));
		status(ctx, "%s", why);
		for (int cpu = 0; cpu < st->ncpus; cpu++)
			st->cpu[cpu].clk.fresh = st->cpu[cpu].clk.read = false;
		return;
	}
	read_cpus(ctx, st);
	sched_charges_end_pass(st);
	if (st->map_error == 0)		/* (map_cores says what failed) */
		status(ctx, "%s", "ok");
}

static void sched_source_free(const struct source_ctx *ctx, void *state)
{
	struct sched_state *st = state;

	(void)ctx;
	if (st->on)
		sched_purr_close(&st->sp);
	sched_charges_free(st);
	release(st);
}

/* The measured basis "sched": each thread's calibrated clock over the
 * core's window, where the program read it at both ends (a missing reading
 * is "not measured", never a hold). */
static bool sched_measure(void *state, const int *cpus, int n, const struct basis_thread *w,
			  double *ms)
{
	const struct sched_state *st = state;

	(void)w;
	if (!st->on || st->cpu == NULL)
		return false;
	for (int i = 0; i < n; i++) {
		const struct sched_clock *k = &st->cpu[cpus[i]].clk;
		if (!k->fresh || !k->win_ok)
			return false;
		ms[i] = (double)(k->clock - k->win_clock) / 1e6;
	}
	return true;
}

static void sched_mark(void *state, const int *cpus, int n)
{
	struct sched_state *st = state;

	if (st->cpu == NULL)
		return;
	for (int i = 0; i < n; i++) {
		struct sched_clock *k = &st->cpu[cpus[i]].clk;
		k->win_clock = k->clock;
		k->win_ok = k->read;	/* a CPU new to its core: its first reading */
	}
}

static bool sched_active(const void *state)
{
	const struct sched_state *st = state;

	return st->on && st->cpu != NULL;
}

static const struct source_basis sched_basis = {
	.name = "sched", .active = sched_active, .measure = sched_measure, .mark = sched_mark,
};

const struct sampler_source sched_source = {
	.name = "sched", .status_names = status_names, .nstatus = 1,
	.state_size = sizeof(struct sched_state),
	.init = sched_source_init, .sync = sched_source_sync, .read = sched_source_read,
	.free = sched_source_free, .basis = &sched_basis,
};

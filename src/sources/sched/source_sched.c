#include "source_sched.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup_path.h"
#include "highwater.h"
#include "log.h"
#include "modelchoice.h"
#include "source.h"
#include "sysroot.h"

static const char *const status_names[] = { "sched" };

static void status(const struct source_ctx *ctx, const char *fmt, const char *why)
{
	source_set_status(ctx, 0, fmt, why);
}

/* Whether a core's threads are not the CPUs the program has for it: one
 * moved, or one went (mapped[] counts the CPUs mapped to each core). */
static bool core_changed(const struct sched_state *st, const struct topo_core *c)
{
	if (st->mapped[c->first_cpu] != c->nthreads)
		return true;
	for (int t = 0; t < c->nthreads; t++)
		if (st->core_of[c->cpus[t]] != c->first_cpu || st->slot_of[c->cpus[t]] != t)
			return true;
	return false;
}

/* Tells the program which CPUs make each core.  A core whose threads
 * changed starts afresh: its CPUs are swept first, so the spells under way
 * there are charged under the old make-up rather than lost with it, then
 * again, so each thread learns whether it is busy; the per-CPU readings of
 * those CPUs start a new baseline. */
static void map_cores(const struct source_ctx *ctx, struct sched_state *st)
{
	int nsweep = 0, err = 0, sts;

	memset(st->mapped, 0, (size_t)st->ncpus * sizeof *st->mapped);
	for (int cpu = 0; cpu < st->ncpus; cpu++)
		if (st->core_of[cpu] >= 0)
			st->mapped[st->core_of[cpu]]++;
	for (int i = 0; i < ctx->topo->ncores; i++) {
		const struct topo_core *c = &ctx->topo->cores[i];

		if (core_changed(st, c))
			for (int t = 0; t < c->nthreads; t++)
				st->scratch[nsweep++] = c->cpus[t];
	}
	if ((sts = sched_purr_sweep(&st->sp, st->scratch, nsweep)) < 0)
		err = sts;
	for (int i = 0; i < ctx->topo->ncores; i++) {
		const struct topo_core *c = &ctx->topo->cores[i];

		if ((sts = sched_purr_set_shares(&st->sp, c->first_cpu, smt_table_for(ctx->config, ctx->cpuinfo, c->nthreads))) < 0)
			err = sts;
		if (!core_changed(st, c))
			continue;
		if ((sts = sched_purr_reset_core(&st->sp, c->first_cpu)) < 0)
			err = sts;
		for (int t = 0; t < c->nthreads; t++) {
			int cpu = c->cpus[t];
			if ((sts = sched_purr_map_cpu(&st->sp, cpu, c->first_cpu, t)) < 0)
				err = sts;
			st->core_of[cpu] = c->first_cpu;
			st->slot_of[cpu] = t;
			st->have_last[cpu] = false;
		}
	}
	for (int cpu = 0; cpu < st->ncpus; cpu++)
		if (!ctx->topo->online[cpu] && st->core_of[cpu] >= 0) {
			if ((sts = sched_purr_map_cpu(&st->sp, cpu, -1, 0)) < 0)
				err = sts;
			st->core_of[cpu] = st->slot_of[cpu] = -1;
			st->have_last[cpu] = false;
		}
	if ((sts = sched_purr_sweep(&st->sp, st->scratch, nsweep)) < 0)
		err = sts;
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
	free(st->core_of);
	free(st->slot_of);
	free(st->last_clock);
	free(st->last_busy);
	free(st->last_missed);
	free(st->have_last);
	free(st->scratch);
	free(st->mapped);
	free(st->clk);
	st->clk = NULL;
	st->core_of = st->slot_of = st->scratch = st->mapped = NULL;
	st->last_clock = st->last_busy = NULL;
	st->last_missed = NULL;
	st->have_last = NULL;
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
	if (!ctx->config->sched) {
		status(ctx, "%s", "off (\"sched off\" in the configuration file)");
		return 0;
	}
	if (strcmp(sr_root(), "/") != 0) {
		status(ctx, "off: the root %s is not this machine's, whose scheduler it would measure",
		       sr_root());
		return 0;
	}
	st->core_of = malloc((size_t)n * sizeof *st->core_of);
	st->slot_of = malloc((size_t)n * sizeof *st->slot_of);
	st->last_clock = calloc((size_t)n, sizeof *st->last_clock);
	st->last_busy = calloc((size_t)n, sizeof *st->last_busy);
	st->last_missed = calloc((size_t)n, sizeof *st->last_missed);
	st->have_last = calloc((size_t)n, sizeof *st->have_last);
	st->scratch = calloc((size_t)n, sizeof *st->scratch);
	st->mapped = calloc((size_t)n, sizeof *st->mapped);
	st->clk = calloc((size_t)n, sizeof *st->clk);
	if (!st->clk || !st->core_of || !st->slot_of || !st->last_clock || !st->last_busy || !st->last_missed ||
	    !st->have_last || !st->scratch || !st->mapped) {
		snprintf(why, sizeof why, "off: out of memory for the software PURR's %d CPUs", n);
		return stay_off(ctx, st, why);
	}
	for (int cpu = 0; cpu < n; cpu++)
		st->core_of[cpu] = st->slot_of[cpu] = -1;
	/* Refused, or out of memory loading it: the program is off, not the agent. */
	if ((sts = sched_purr_open(&st->sp, n, why, sizeof why)) < 0)
		return stay_off(ctx, st, why);
	st->on = true;
	if (cgroup2_mount(st->cgroup_mount, sizeof st->cgroup_mount) < 0)
		st->cgroup_mount[0] = '\0';
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

/* The process's instance name as the proc PMDA makes it: the PID in six
 * digits, then the command line's first word, or "(comm)" for a kernel
 * thread or a process already gone. */
static void name_process(struct sched_entry *e, uint32_t pid, const char *comm)
{
	char cmd[SCHED_NAME_MAX];
	ssize_t len = sr_read_small(cmd, sizeof cmd, "/proc/%u/cmdline", pid);
	size_t word;

	if (len == -EFBIG)	/* a longer command line: its first word is here */
		len = (ssize_t)strlen(cmd);
	word = len > 0 ? strnlen(cmd, (size_t)len) : 0;

	cmd[word < sizeof cmd ? word : sizeof cmd - 1] = '\0';
	cmd[strcspn(cmd, " ")] = '\0';
	for (char *p = cmd; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	if (cmd[0])
		snprintf(e->name, sizeof e->name, "%06u %s", pid, cmd);
	else
		snprintf(e->name, sizeof e->name, "%06u (%.*s)", pid, SP_COMM_LEN, comm);
}

static void name_cgroup(const struct sched_state *st, struct sched_entry *e, uint64_t id)
{
	if (st->cgroup_mount[0] == '\0' ||
	    cgroup_path_of(st->cgroup_mount, id, e->name, sizeof e->name) < 0)
		snprintf(e->name, sizeof e->name, "(cgroup %llu)", (unsigned long long)id);
}

/* The slot for key, a new one when absent or when start says the key now
 * belongs to another process (start 0: not known yet). */
static int slot_for(struct sched_table *t, uint64_t key, uint64_t start, bool *fresh)
{
	int slot = sched_table_find(t, key);

	*fresh = false;
	if (slot >= 0 && start && t->e[slot].start && t->e[slot].start != start) {
		sched_table_release(t, slot);
		slot = -1;
	}
	if (slot < 0) {
		if ((slot = sched_table_claim(t, key)) < 0)
			return slot;
		*fresh = true;
	}
	if (start)
		t->e[slot].start = start;
	return slot;
}

static void read_task(void *arg, uint32_t tgid, const struct sp_task *t)
{
	struct sched_state *st = arg;
	bool fresh;
	int slot = slot_for(&st->procs, tgid, t->start, &fresh);
	struct sched_entry *e;

	if (slot < 0)
		return;
	e = &st->procs.e[slot];
	if (fresh)
		name_process(e, tgid, t->comm);
	e->read_clock += t->clock;
	e->read_busy += t->busy;
	e->exited = t->exited;
	e->seen = true;
}

static void read_cgroup(void *arg, uint64_t id, const struct sp_cgroup *g)
{
	struct sched_state *st = arg;
	bool fresh;
	int slot = slot_for(&st->cgroups, id, 0, &fresh);
	struct sched_entry *e;

	if (slot < 0)
		return;
	e = &st->cgroups.e[slot];
	if (fresh)
		name_cgroup(st, e, id);
	e->read_clock += g->clock;
	e->read_busy += g->busy;
	e->seen = true;
}

/* A spell under way on a CPU counts for its process and cgroup now, not
 * only when it ends: a process that never switches out still grows. */
static void add_spell(struct sched_state *st, const struct sp_thread *t, uint64_t clock,
		      uint64_t busy)
{
	bool fresh;
	int slot;

	if (t->tgid && (slot = slot_for(&st->procs, t->tgid, 0, &fresh)) >= 0) {
		struct sched_entry *e = &st->procs.e[slot];
		if (fresh)
			name_process(e, t->tgid, "");
		e->read_clock += clock;
		e->read_busy += busy;
		e->seen = true;
	}
	if (t->tgid && (slot = slot_for(&st->cgroups, t->cgroup, 0, &fresh)) >= 0) {
		struct sched_entry *e = &st->cgroups.e[slot];
		if (fresh)
			name_cgroup(st, e, t->cgroup);
		e->read_clock += clock;
		e->read_busy += busy;
		e->seen = true;
	}
}

/* A CPU's pending charge (sp_pending) counts for its process and cgroup
 * as if in the maps.  Only for an entry the maps had this pass, for the
 * same process: the program made it when the charge began pending, so one
 * missing was retired (or evicted) and stays so. */
static void add_pending(struct sched_state *st, const struct sp_pending *p)
{
	int slot;

	if (p->tgid == 0 || p->busy == 0)
		return;
	slot = sched_table_find(&st->procs, p->tgid);
	if (slot >= 0 && st->procs.e[slot].seen && st->procs.e[slot].start == p->start) {
		st->procs.e[slot].read_clock += p->clock;
		st->procs.e[slot].read_busy += p->busy;
	}
	slot = sched_table_find(&st->cgroups, p->cgroup);
	if (slot >= 0 && st->cgroups.e[slot].seen) {
		st->cgroups.e[slot].read_clock += p->clock;
		st->cgroups.e[slot].read_busy += p->busy;
	}
}

static void begin_pass(struct sched_table *t)
{
	for (int i = 0; i < t->cap; i++) {
		t->e[i].seen = false;
		t->e[i].read_clock = t->e[i].read_busy = 0;
	}
}

/* Readings become the exported values, which never go back: a spell read
 * under way and then missed between the two map reads comes back next
 * pass.  Entries gone from the map (evicted), or exited a while ago, go. */
static void end_pass(struct sched_state *st, struct sched_table *t, bool procs, bool check)
{
	for (int i = 0; i < t->cap; i++) {
		struct sched_entry *e = &t->e[i];

		if (!e->used)
			continue;
		if (!e->seen) {
			sched_table_release(t, i);
			continue;
		}
		if (e->read_clock > e->clock)
			e->clock = e->read_clock;
		if (e->read_busy > e->busy)
			e->busy = e->read_busy;
		if (procs && e->exited && st->sp.now > e->exited + SCHED_CULL_NS) {
			sched_purr_forget_task(&st->sp, (uint32_t)e->key);
			sched_table_release(t, i);
		} else if (!procs && check && st->cgroup_mount[0] && e->name[0] == '/' &&
			   !cgroup_path_is(st->cgroup_mount, e->name, e->key)) {
			sched_purr_forget_cgroup(&st->sp, e->key);
			sched_table_release(t, i);
		}
	}
}

/* Adds a CPU's growth since its last reading to its clocks; false where they
 * started again (the caller starts counting from this reading). */
static bool add_reading(struct sched_state *st, int cpu, uint64_t clock, uint64_t busy)
{
	uint64_t dc = highwater_advance(&st->last_clock[cpu], clock, SCHED_BACK_SLACK_NS);
	uint64_t db = highwater_advance(&st->last_busy[cpu], busy, SCHED_BACK_SLACK_NS);

	if (dc == HIGHWATER_RESTARTED || db == HIGHWATER_RESTARTED) {
		smt_log_once(SMT_LOG_WARNING, "cpu%d: the software PURR's clocks went back over a "
			     "second; counting starts again from the new values", cpu);
		return false;
	}
	st->clk[cpu].clock += dc;
	st->clk[cpu].busy += db;
	return true;
}

/* Per CPU: the clocks become the measured basis "sched", by increments. */
static void read_cpus(const struct source_ctx *ctx, struct sched_state *st)
{
	for (int cpu = 0; cpu < st->ncpus; cpu++)
		st->clk[cpu].fresh = false;
	for (int i = 0; i < ctx->topo->ncores; i++) {
		const struct topo_core *c = &ctx->topo->cores[i];

		for (int t = 0; t < c->nthreads; t++) {
			int cpu = c->cpus[t];
			uint64_t clock, busy, sc, sb;

			if (st->core_of[cpu] != c->first_cpu || st->slot_of[cpu] != t)
				continue;
			const struct sp_thread *th = &st->sp.core[c->first_cpu].t[t];

			sched_purr_thread_now(&st->sp, c->first_cpu, t, &clock, &busy, &sc, &sb);
			add_spell(st, th, sc, sb);
			add_pending(st, &th->pending);
			if (st->have_last[cpu] && add_reading(st, cpu, clock, busy)) {
				st->clk[cpu].fresh = true;
			} else {
				st->last_clock[cpu] = clock;
				st->last_busy[cpu] = busy;
			}
			if (st->have_last[cpu] && th->missed >= st->last_missed[cpu])
				st->missed += th->missed - st->last_missed[cpu];
			st->last_missed[cpu] = th->missed;
			st->have_last[cpu] = true;
		}
	}
}

static void sched_source_read(const struct source_ctx *ctx, void *state, bool cpus_changed)
{
	struct sched_state *st = state;
	bool check;
	int sts;

	(void)cpus_changed;
	if (!st->on)
		return;
	begin_pass(&st->procs);
	begin_pass(&st->cgroups);
	/* Charged spells first, then the cores: a spell that ends between the
	 * two reads is missed this pass rather than counted twice. */
	if (sched_purr_each_task(&st->sp, read_task, st) < 0 ||
	    sched_purr_each_cgroup(&st->sp, read_cgroup, st) < 0)
		st->task_errors++;
	if ((sts = sched_purr_read_cores(&st->sp)) < 0) {
		char why[128];
		snprintf(why, sizeof why, "cannot read the program's cores map: %s", strerror(-sts));
		status(ctx, "%s", why);
		for (int cpu = 0; cpu < st->ncpus; cpu++)
			st->clk[cpu].fresh = false;
		return;
	}
	read_cpus(ctx, st);
	check = st->sp.now >= st->next_cgroup_check;
	if (check)
		st->next_cgroup_check = st->sp.now + SCHED_CGROUP_CHECK_NS;
	end_pass(st, &st->procs, true, false);
	end_pass(st, &st->cgroups, false, check);
	if (st->map_error == 0)		/* (map_cores says what failed) */
		status(ctx, "%s", "ok");
}

static void sched_source_free(const struct source_ctx *ctx, void *state)
{
	struct sched_state *st = state;

	(void)ctx;
	if (st->on)
		sched_purr_close(&st->sp);
	sched_table_free(&st->procs);
	sched_table_free(&st->cgroups);
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
	if (!st->on || st->clk == NULL)
		return false;
	for (int i = 0; i < n; i++) {
		const struct sched_clock *k = &st->clk[cpus[i]];
		if (!k->fresh || !k->win_ok)
			return false;
		ms[i] = (double)(k->clock - k->win_clock) / 1e6;
	}
	return true;
}

static void sched_mark(void *state, const int *cpus, int n)
{
	struct sched_state *st = state;

	if (st->clk == NULL)
		return;
	for (int i = 0; i < n; i++) {
		struct sched_clock *k = &st->clk[cpus[i]];
		k->win_clock = k->clock;
		k->win_ok = k->fresh;
	}
}

static bool sched_active(const void *state)
{
	const struct sched_state *st = state;

	return st->on && st->clk != NULL;
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

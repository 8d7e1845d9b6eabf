#include "source_sched.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cgroup_path.h"
#include "highwater.h"
#include "log.h"
#include "modelchoice.h"
#include "printable.h"
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
	for (int m = 0; m < SP_NMAPS; m++)
		st->maps[m].capacity = sched_purr_capacity(&st->sp, (enum sp_map)m);
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

/* The uid /proc gives the process's directory (its effective uid; root's
 * where it may not be dumped, task_dump_owner in fs/proc/base.c), as the
 * kernel weighs who may see it under hidepid=. */
static uint32_t owner_of(uint32_t pid)
{
	char path[PATH_MAX];
	struct stat sb;

	if (sr_path(path, sizeof path, "/proc/%u", pid) < 0 || stat(path, &sb) < 0)
		return SCHED_OWNER_UNKNOWN;
	return (uint32_t)sb.st_uid;
}

/* The process's instance name as the proc PMDA makes it: the PID in six
 * digits, then the command line's first word, or "(comm)" for a kernel
 * thread or a process already gone; either as printable_copy makes it. */
static void name_process(struct sched_state *st, int slot, uint32_t pid, const char *comm,
			 uint64_t ghost)
{
	struct sched_entry *e = &st->procs.e[slot];
	char cmd[SCHED_NAME_MAX], word[32], shown[SP_COMM_LEN + 1];
	ssize_t len = sr_read_small(cmd, sizeof cmd, "/proc/%u/cmdline", pid);
	size_t end;

	if (len == -EFBIG)	/* a longer command line: its first word is here */
		len = (ssize_t)strlen(cmd);
	end = len > 0 ? strnlen(cmd, (size_t)len) : 0;

	cmd[end < sizeof cmd ? end : sizeof cmd - 1] = '\0';
	cmd[strcspn(cmd, " ")] = '\0';
	printable_copy(cmd, sizeof cmd, cmd, sizeof cmd);
	printable_copy(shown, sizeof shown, comm, SP_COMM_LEN);
	/* PCP takes the first word as unique: one that took the PID of a
	 * process still served (a ghost) is PID:N, N its own number in the
	 * table (gen), which no other holder ever has. */
	if (ghost)
		snprintf(word, sizeof word, "%06u:%u", pid, e->gen);
	else
		snprintf(word, sizeof word, "%06u", pid);
	if (cmd[0])
		snprintf(e->name, sizeof e->name, "%s %s", word, cmd);
	else
		snprintf(e->name, sizeof e->name, "%s (%s)", word, shown);
	e->owner = owner_of(pid);
}

/* A cgroup's instance name: its path below the cgroup2 mount; for one
 * already removed, its parent's path and the directory name the program
 * kept; else "(cgroup-ID)".  PCP takes the name up to a space as unique:
 * a removed cgroup whose path a new one takes (a service restarted) goes
 * now, its values served; a removed one never takes a live one's. */
static void name_cgroup(struct sched_state *st, int slot, uint64_t id, const struct sp_cgroup *g)
{
	struct sched_entry *e = &st->cgroups.e[slot];
	char parent[SCHED_NAME_MAX];
	const char *mount = st->cgroup_mount;
	bool live = false;
	int other;

	if (mount[0] && cgroup_path_of(mount, id, e->name, sizeof e->name) == 0)
		live = true;
	else if (mount[0] && g && g->name[0] && g->parent &&
		 cgroup_path_of(mount, g->parent, parent, sizeof parent) == 0)
		snprintf(e->name, sizeof e->name, "%s/%.*s", strcmp(parent, "/") ? parent : "",
			 (int)strnlen(g->name, sizeof g->name), g->name);
	else
		snprintf(e->name, sizeof e->name, "(cgroup-%llu)", (unsigned long long)id);
	printable_copy(e->name, sizeof e->name, e->name, sizeof e->name);
	if ((other = sched_table_same_word(&st->cgroups, slot, e->name)) < 0)
		return;
	if (live && (st->cgroups.e[other].exited ||
		     cgroup_path_of(mount, st->cgroups.e[other].key, parent, sizeof parent) == -ENOENT)) {
		sched_purr_forget_cgroup(&st->sp, st->cgroups.e[other].key);
		sched_table_release(&st->cgroups, other);
	} else {
		snprintf(e->name, sizeof e->name, "(cgroup-%llu)", (unsigned long long)id);
	}
}

/* The slot for key, a new one when absent or when start says the key now
 * belongs to another process (start 0: not known yet).  The process that
 * had the key (a PID used again) stays, as a ghost under a key of its own,
 * until it has been served retire_ns after it ended, as any other;
 * *ghost is then its number, else 0. */
static int slot_for(struct sched_state *st, struct sched_table *t, uint64_t key, uint64_t start,
		    bool *fresh, uint64_t *ghost)
{
	int slot = sched_table_find(t, key);

	*fresh = false;
	*ghost = 0;
	if (slot >= 0 && start && t->e[slot].start && t->e[slot].start != start) {
		struct sched_entry *old = &t->e[slot];
		old->ghost = true;
		if (!old->exited)
			old->exited = st->sp.now;
		*ghost = ++st->ghosts;
		sched_table_rekey(t, slot, key | (*ghost << 32));
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
	uint64_t ghost;
	int slot = slot_for(st, &st->procs, tgid, t->start, &fresh, &ghost);
	struct sched_entry *e;

	if (slot < 0)
		return;
	e = &st->procs.e[slot];
	if (fresh)
		name_process(st, slot, tgid, t->comm, ghost);
	e->read_clock += t->clock;
	e->read_busy += t->busy;
	e->exited = t->exited;
	e->seen = true;
}

/* What each uid holds of the tasks map, and what its share refused. */
static void read_uid(void *arg, uint32_t uid, const struct sp_uid_made *m, uint64_t freed)
{
	struct sched_state *st = arg;
	uint64_t gone = m->replaced + freed;

	if (st->nuids == SP_UIDS || (m->made <= gone && m->refused == 0))
		return;
	st->uids[st->nuids++] = (struct sched_uid){ uid, m->made > gone ? (uint32_t)(m->made - gone) : 0,
						    m->refused, m->refused_clock };
}

static void read_cgroup(void *arg, uint64_t id, const struct sp_cgroup *g)
{
	struct sched_state *st = arg;
	bool fresh;
	uint64_t ghost;
	int slot = slot_for(st, &st->cgroups, id, 0, &fresh, &ghost);
	struct sched_entry *e;

	if (slot < 0)
		return;
	if (fresh)
		name_cgroup(st, slot, id, g);
	e = &st->cgroups.e[slot];
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
	uint64_t ghost;
	int slot;

	if (t->tgid && (slot = slot_for(st, &st->procs, t->tgid, t->start, &fresh, &ghost)) >= 0) {
		struct sched_entry *e = &st->procs.e[slot];
		if (fresh)
			name_process(st, slot, t->tgid, "", ghost);
		e->read_clock += clock;
		e->read_busy += busy;
		e->seen = true;
	}
	if (t->tgid && (slot = slot_for(st, &st->cgroups, t->cgroup, 0, &fresh, &ghost)) >= 0) {
		struct sched_entry *e = &st->cgroups.e[slot];
		if (fresh)
			name_cgroup(st, slot, t->cgroup, NULL);
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
	if (slot >= 0 && st->procs.e[slot].start == p->start) {
		st->procs.e[slot].pending = true;
		if (st->procs.e[slot].seen) {
			st->procs.e[slot].read_clock += p->clock;
			st->procs.e[slot].read_busy += p->busy;
		}
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
		t->e[i].seen = t->e[i].pending = false;
		t->e[i].read_clock = t->e[i].read_busy = 0;
	}
}

/* Whether cgroup id was removed: by the kernel's handle where it gives
 * one, else by looking for it. */
static bool cgroup_removed(const struct sched_state *st, int mount_fd, uint64_t id)
{
	char path[SCHED_NAME_MAX];
	int gone = mount_fd >= 0 ? cgroup_gone(mount_fd, id) : -EBADF;

	if (gone >= 0)
		return gone;
	return cgroup_path_of(st->cgroup_mount, id, path, sizeof path) == -ENOENT;
}

/* Readings become the exported values, which never go back: a spell read
 * under way and then missed between the two map reads comes back next
 * pass.  An entry the map no longer has goes.  A process that exited
 * leaves the map SCHED_FORGET_NS later, once no CPU holds a charge for
 * it; it, or a cgroup found removed (mount_fd >= 0: look this pass),
 * stays an instance retire_ns, its last values served, then leaves the
 * table (and a cgroup the map). */
static void end_pass(struct sched_state *st, struct sched_table *t, bool procs, int mount_fd)
{
	for (int i = 0; i < t->cap; i++) {
		struct sched_entry *e = &t->e[i];

		if (!e->used)
			continue;
		if (!e->seen && !e->ghost && !e->forgotten) {
			sched_table_release(t, i);
			continue;
		}
		if (e->read_clock > e->clock)
			e->clock = e->read_clock;
		if (e->read_busy > e->busy)
			e->busy = e->read_busy;
		if (!procs && !e->exited && mount_fd >= 0 && cgroup_removed(st, mount_fd, e->key))
			e->exited = st->sp.now;
		/* (a ghost's PID, and map entry, are its successor's) */
		if (procs && e->exited && !e->ghost && !e->forgotten && !e->pending &&
		    st->sp.now > e->exited + SCHED_FORGET_NS) {
			sched_purr_forget_task(&st->sp, (uint32_t)e->key, e->start);
			e->forgotten = true;
		}
		if (e->exited && st->sp.now > e->exited + st->retire_ns) {
			if (procs && !e->ghost && !e->forgotten)
				sched_purr_forget_task(&st->sp, (uint32_t)e->key, e->start);
			else if (!procs)
				sched_purr_forget_cgroup(&st->sp, e->key);
			sched_table_release(t, i);
		}
	}
}

/* How full each map is, and what it refused. */
static void note_use(struct sched_state *st, enum sp_map map, int entries)
{
	struct sched_map_use *u = &st->maps[map];

	if (entries >= 0) {
		u->entries = (uint32_t)entries;
		if (u->entries > u->peak)
			u->peak = u->entries;
	}
	if (sched_purr_refused(&st->sp, map, &u->refused) < 0)
		st->task_errors++;
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
			add_spell(st, th, sc, sb);
			add_pending(st, &th->pending);
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
	int sts, ntasks, ncgroups, mount_fd = -1;

	(void)cpus_changed;
	if (!st->on)
		return;
	/* Charged spells first, then the cores: a spell that ends between the
	 * two reads is missed rather than counted twice.  Read again while a
	 * charge moved across them (a few tries: under a storm of switches
	 * some CPU always moves one, and what moved comes back next pass). */
	for (int attempt = 1;; attempt++) {
		bool flow = sched_purr_read_flow(&st->sp, 0) >= 0;

		begin_pass(&st->procs);
		begin_pass(&st->cgroups);
		ntasks = sched_purr_each_task(&st->sp, read_task, st);
		ncgroups = sched_purr_each_cgroup(&st->sp, read_cgroup, st);
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
	if (ntasks < 0 || ncgroups < 0)
		st->task_errors++;
	note_use(st, SP_MAP_TASKS, ntasks);
	note_use(st, SP_MAP_CGROUPS, ncgroups);
	st->nuids = 0;
	if (sched_purr_each_uid(&st->sp, read_uid, st) < 0)
		st->task_errors++;
	if (sts < 0) {
		char why[128];
		snprintf(why, sizeof why, "cannot read the program's cores map: %s", strerror(-sts));
		status(ctx, "%s", why);
		for (int cpu = 0; cpu < st->ncpus; cpu++)
			st->cpu[cpu].clk.fresh = st->cpu[cpu].clk.read = false;
		return;
	}
	read_cpus(ctx, st);
	if (st->cgroup_mount[0] && st->sp.now >= st->next_cgroup_check) {
		st->next_cgroup_check = st->sp.now + SCHED_CGROUP_CHECK_NS;
		mount_fd = open(st->cgroup_mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	end_pass(st, &st->procs, true, -1);
	end_pass(st, &st->cgroups, false, mount_fd);
	sched_table_shrink(&st->procs);
	sched_table_shrink(&st->cgroups);
	if (mount_fd >= 0)
		close(mount_fd);
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

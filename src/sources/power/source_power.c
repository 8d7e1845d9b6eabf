/*
 * The POWER source: PURR counters per CPU and the LPAR's lparcfg counters,
 * as increments, with the status that says whether smt.* can come from
 * PURR, and per CPU which files are open and were read this pass.
 */
#include "source_power.h"

#include "source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "monoclock.h"
#include "readfile.h"

/* Decides whether PURR can stand in for the model, and says why not. */
static void purr_status(const struct source_ctx *ctx, struct power_state *ps)
{
	const struct purr *p = &ps->purr;
	int err = p->open_error[PURR];

	ps->trusted = false;
	if (p->nopen[PURR] == 0 && p->nfailed[PURR] == 0) {
		if ((err == 0 || err == ENOENT) && ctx->cpuinfo->arch == CPU_ARCH_POWER)
			/* (arch/powerpc/kernel/sysfs.c makes it where the CPU
			 * has the register: CPU_FTR_PURR, POWER5 on) */
			source_set_status(ctx, POWER_STATUS_PURR, "no PURR: /sys/devices/system/cpu/cpuN/purr is "
			       "absent on this POWER system (a processor without the register, or a "
			       "/sys that does not show it); smt.* use the software PURR or the model (smt.source)");
		else if (err == 0 || err == ENOENT)
			source_set_status(ctx, POWER_STATUS_PURR, "no PURR: /sys/devices/system/cpu/cpuN/purr is absent "
			       "(only IBM POWER has it)");
		else if (err == EACCES || err == EPERM)
			source_set_status(ctx, POWER_STATUS_PURR, "cannot read cpu%d/purr: %s (PURR files are root only: "
			       "run the PMDA as root); smt.* use the software PURR or the model (smt.source)",
			       p->open_error_cpu[PURR], strerror(err));
		else
			source_set_status(ctx, POWER_STATUS_PURR, "cannot read cpu%d/purr: %s; smt.* use the software PURR or the model "
			       "(smt.source)", p->open_error_cpu[PURR], strerror(err));
		return;
	}
	if (ctx->cpuinfo->timebase == 0) {
		source_set_status(ctx, POWER_STATUS_PURR, "no timebase line in /proc/cpuinfo: PURR ticks cannot be "
		       "turned into time; smt.* use the software PURR or the model (smt.source)");
		return;
	}
	if (ctx->cpuinfo->guest == POWER_GUEST_TCG) {
		source_set_status(ctx, POWER_STATUS_PURR, "QEMU guest without KVM (TCG) on POWER%d: "
		       "its PURR is QEMU's emulation, not a core's hardware share; PURR counters are "
		       "exported as read, smt.* use the software PURR or the model (smt.source)", ctx->cpuinfo->power_generation);
		return;
	}
	if (ctx->cpuinfo->guest == POWER_GUEST_KVM && ctx->cpuinfo->power_generation >= 9) {
		source_set_status(ctx, POWER_STATUS_PURR, "KVM guest on POWER%d: PURR counts the whole timebase for a "
		       "busy vCPU, not its share of a core; PURR counters are exported as read, "
		       "smt.* use the software PURR or the model (smt.source)", ctx->cpuinfo->power_generation);
		return;
	}
	if (p->nopen[IDLE_PURR] == 0 && p->nfailed[IDLE_PURR] == 0) {
		source_set_status(ctx, POWER_STATUS_PURR, "no idle_purr (a PowerNV host, or a kernel before 5.8): busy "
		       "PURR is unknown; smt.* use the software PURR or the model (smt.source), and PURR is shared out "
		       "by mode in proportion to /proc/stat");
		return;
	}
	ps->trusted = true;
	for (int k = PURR; k <= IDLE_PURR; k += IDLE_PURR - PURR)
		if (p->nfailed[k] > 0) {
			source_set_status(ctx, POWER_STATUS_PURR, "%s unreadable on %d of %d online CPUs (cpu%d: "
			       "%s), retried every pass; cores with such a thread use the model",
			       purr_file_names[k], p->nfailed[k], p->nonline, p->failed_cpu[k],
			       strerror(p->failed_error[k]));
			return;
		}
	for (int k = PURR; k <= IDLE_PURR; k += IDLE_PURR - PURR)
		if (p->nmalformed[k] > 0) {
			source_set_status(ctx, POWER_STATUS_PURR, "%s is not a hex counter on %d of %d online "
			       "CPUs (cpu%d first); their cores' windows are held over",
			       purr_file_names[k], p->nmalformed[k], p->nonline, p->malformed_cpu[k]);
			return;
		}
	for (int k = PURR; k <= IDLE_PURR; k += IDLE_PURR - PURR)
		if (p->nopen[k] < p->nonline) {
			source_set_status(ctx, POWER_STATUS_PURR, "%s unreadable on %d of %d online CPUs (cpu%d: %s); "
			       "cores with such a thread use the model", purr_file_names[k],
			       p->nonline - p->nopen[k], p->nonline, p->open_error_cpu[k],
			       strerror(p->open_error[k] ? p->open_error[k] : ENOENT));
			return;
		}
	source_set_status(ctx, POWER_STATUS_PURR, "ok");
}


static void power_sync(const struct source_ctx *ctx, void *state);

static int power_init(const struct source_ctx *ctx, void *state)
{
	struct power_state *ps = state;
	int sts;

	if ((sts = purr_init(&ps->purr, ctx->topo->ncpus)) < 0)
		return sts;
	ps->ncpus = ctx->topo->ncpus;
	ps->timebase = ctx->cpuinfo->timebase;
	if ((ps->cpu = calloc((size_t)(ps->ncpus > 0 ? ps->ncpus : 1), sizeof *ps->cpu)) == NULL)
		return -ENOMEM;
	power_sync(ctx, ps);
	sts = lparcfg_open(&ps->lparcfg);
	if (sts == -ENOMEM)
		return sts;
	if (sts == -ENOENT)
		source_set_status(ctx, POWER_STATUS_LPARCFG, "%s",
				  strcmp(ctx->cpuinfo->platform, "pSeries") == 0 ?
				  "no /proc/powerpc/lparcfg on this pSeries system (a kernel without "
				  "CONFIG_LPARCFG, as Debian's, has none); lpar.* have no values" :
				  "no /proc/powerpc/lparcfg (not a pSeries LPAR)");
	else if (sts < 0)
		source_set_status(ctx, POWER_STATUS_LPARCFG, "cannot open /proc/powerpc/lparcfg: %s", strerror(-sts));
	return 0;
}

static void power_free(const struct source_ctx *ctx, void *state)
{
	struct power_state *ps = state;

	(void)ctx;
	purr_free(&ps->purr);
	free(ps->cpu);
	lparcfg_close(&ps->lparcfg);
}

/* After the online set changed: files follow the CPUs; a CPU that went
 * offline starts its counters' baselines again when it returns. */
static void power_sync(const struct source_ctx *ctx, void *state)
{
	struct power_state *ps = state;

	purr_sync(&ps->purr, ctx->topo->online);
	for (int cpu = 0; cpu < ps->ncpus; cpu++)
		if (!ctx->topo->online[cpu])
			for (int k = 0; k < PURR_NCOUNTERS; k++)
				ps->cpu[cpu].live[k] = false;
	purr_status(ctx, ps);
}

/*
 * Adds v - *last to *total.  The first reading starts the total; one below
 * the last (a CPU back from offline, a reset) starts a new baseline and
 * adds nothing, so there is no negative rate and no spike.
 */
static bool accumulate(uint64_t v, uint64_t *total, uint64_t *last, bool *have, bool *live)
{
	bool back = false;

	if (!*have) {
		*total = v;
		*have = true;
	} else if (*live && v >= *last) {
		*total += v - *last;
	} else {
		back = *live;
	}
	*last = v;
	*live = true;
	return back;
}

/* purr and idle_purr always; SPURR and idle_spurr while asked for. */
static unsigned wanted_counters(const struct power_state *ps)
{
	unsigned wanted = PURR_ALL_COUNTERS & ~POWER_ON_DEMAND;
	double now = mono_seconds();

	for (int k = 0; k < PURR_NCOUNTERS; k++)
		if (ps->asked[k] && now - ps->asked_at[k] < POWER_ASKED_S)
			wanted |= PURR_BIT(k);
	return wanted;
}

/* A counter unread for a while adds what it grew meanwhile at its next
 * reading (its baseline stays live while its CPU stays online). */
static void read_purr(struct power_state *ps)
{
	ps->read_set = wanted_counters(ps);
	purr_read(&ps->purr, ps->read_set);
	for (int cpu = 0; cpu < ps->ncpus; cpu++) {
		const struct purr_cpu *pc = &ps->purr.cpu[cpu];
		struct purr_values *v = &ps->cpu[cpu];

		for (int k = 0; k < PURR_NCOUNTERS; k++) {
			uint64_t before = v->total[k];
			bool had = v->have[k];

			if (!pc->seen[k])
				continue;
			/* The model had the core while this file failed: its
			 * window starts again rather than count that time twice. */
			if (pc->reopened[k])
				v->win_ok = false;
			if (accumulate(pc->now[k], &v->total[k], &v->last[k], &v->have[k],
				       &v->live[k]))
				smt_log_once(SMT_LOG_INFO, "cpu%d/%s went backwards; counting on "
					     "from the new value", cpu, purr_file_names[k]);
			if (had)
				ps->all[k] += v->total[k] - before;
			ps->have_all[k] = true;
		}
	}
}

static const enum lpar_key lpar_counter_key[LPAR_NCOUNTERS] = {
	LPAR_POOL_IDLE, LPAR_PURR, LPAR_TBR
};

/*
 * purr_step: the per-CPU files' PURR increments this pass.  lparcfg's purr
 * sums the CPUs online when it is read, so across a hotplug its step counts
 * a CPU's whole register in or out; over that window the increments of the
 * threads online at both ends stand in, and a new baseline follows.
 */
static void read_lparcfg(const struct source_ctx *ctx, struct power_state *ps, bool cpus_changed,
			 uint64_t purr_step)
{
	struct lparcfg *l = &ps->lparcfg;
	int n;

	if (l->fd < 0)
		return;
	if ((n = lparcfg_read(l)) < 0) {
		char why[64];
		source_set_status(ctx, POWER_STATUS_LPARCFG, "cannot read lparcfg: %s; lpar.* have no values",
				   rf_strerror(n, LPARCFG_BOUND, why, sizeof why));
		return;
	}
	for (int c = 0; c < LPAR_NCOUNTERS; c++) {
		enum lpar_key k = lpar_counter_key[c];
		bool live = ps->lpar.have[c];

		if (!l->have[k] || l->value[k] < 0)
			continue;
		if (c == LPAR_C_PURR && cpus_changed && live) {
			ps->lpar.total[c] += purr_step;
			ps->lpar.last[c] = (uint64_t)l->value[k];
			continue;
		}
		if (accumulate((uint64_t)l->value[k], &ps->lpar.total[c], &ps->lpar.last[c],
			       &ps->lpar.have[c], &live))
			smt_log_once(SMT_LOG_INFO, "lparcfg %s went backwards; counting on from "
				     "the new value", lparcfg_key_names[k]);
	}
	/* Keys every pSeries LPAR has; the rest depend on the partition. */
	static const enum lpar_key always[] = {
		LPAR_ENTITLED, LPAR_CAPPED, LPAR_SHARED, LPAR_VPROCS
	};
	char missing[160] = "";
	size_t used = 0;

	for (size_t i = 0; i < sizeof always / sizeof always[0]; i++)
		if (!l->have[always[i]] && used < sizeof missing)
			used += (size_t)snprintf(missing + used, sizeof missing - used, "%s%s",
						 used ? ", " : "", lparcfg_key_names[always[i]]);
	if (n == 0)
		source_set_status(ctx, POWER_STATUS_LPARCFG, "lparcfg %s has none of the keys smtcpu reads",
		       l->version);
	else if (used)
		source_set_status(ctx, POWER_STATUS_LPARCFG, "lparcfg %s lacks %s: those metrics have no values",
		       l->version, missing);
	else
		source_set_status(ctx, POWER_STATUS_LPARCFG, "ok");
}

/* Reads every PURR file and lparcfg once, and adds the increments. */
static void power_read(const struct source_ctx *ctx, void *state, bool cpus_changed)
{
	struct power_state *ps = state;
	uint64_t purr_before = ps->all[PURR];

	if (ps->purr.nopen[PURR] > 0 || ps->purr.nfailed[PURR] > 0) {
		read_purr(ps);
		purr_status(ctx, ps);
	}
	read_lparcfg(ctx, ps, cpus_changed, ps->all[PURR] - purr_before);
}

static bool power_ask(const struct source_ctx *ctx, void *state, unsigned what)
{
	struct power_state *ps = state;
	bool stale = false;

	(void)ctx;
	what &= POWER_ON_DEMAND;
	for (int k = 0; k < PURR_NCOUNTERS; k++) {
		if (!(what & PURR_BIT(k)))
			continue;
		ps->asked[k] = true;
		ps->asked_at[k] = mono_seconds();
		/* (no pass for a file no CPU has: not a POWER system) */
		if (!(ps->read_set & PURR_BIT(k)) && (ps->purr.nopen[k] > 0 || ps->purr.nfailed[k] > 0))
			stale = true;
	}
	return stale;
}

/* How much PURR a core's window can use: 0 none, 1 purr, 2 purr and
 * idle_purr, for every thread. */
static int core_files(const struct power_state *ps, const int *cpus, int n)
{
	int files = 2;

	for (int i = 0; i < n && files; i++) {
		const struct purr_cpu *pc = &ps->purr.cpu[cpus[i]];
		if (pc->fd[PURR] < 0)
			files = 0;
		else if (pc->fd[IDLE_PURR] < 0)
			files = 1;
	}
	return files;
}

/* A thread whose open files were not read this pass holds the core's window
 * over (PURR and /proc/stat must cover the same window); one whose baseline
 * is gone (a file reopened) starts it again. */
static enum basis_check purr_check(void *state, const int *cpus, int n)
{
	const struct power_state *ps = state;
	int files = core_files(ps, cpus, n);

	for (int i = 0; i < n; i++) {
		const struct purr_cpu *pc = &ps->purr.cpu[cpus[i]];
		if ((files >= 1 && !pc->seen[PURR]) || (files == 2 && !pc->seen[IDLE_PURR]))
			return BASIS_HOLD;
	}
	for (int i = 0; i < n && files; i++)
		if (!ps->cpu[cpus[i]].win_ok)
			return BASIS_RESTART;
	return BASIS_GO;
}

static double window_of(const struct purr_values *v, int k)
{
	return (double)(v->total[k] - v->win[k]);
}

/* Busy PURR, purr - idle_purr over the window, in ms of the timebase:
 * where both files of every thread serve and PURR is trusted here. */
static bool purr_measure(void *state, const int *cpus, int n, const struct basis_thread *w,
			 double *ms)
{
	const struct power_state *ps = state;

	(void)w;
	if (!ps->trusted || ps->timebase == 0 || core_files(ps, cpus, n) != 2)
		return false;
	for (int i = 0; i < n; i++) {
		const struct purr_values *v = &ps->cpu[cpus[i]];
		double purr = window_of(v, PURR), idle = window_of(v, IDLE_PURR);
		ms[i] = (purr - (idle < purr ? idle : purr)) * 1000.0 / (double)ps->timebase;
	}
	return true;
}

/* Each thread's PURR over the window shared out by /proc/stat's modes. */
static void purr_counted(void *state, const int *cpus, int n, const struct basis_thread *w)
{
	struct power_state *ps = state;
	int files = core_files(ps, cpus, n);

	if (files == 0)
		return;
	for (int i = 0; i < n; i++) {
		struct purr_values *v = &ps->cpu[cpus[i]];
		const uint64_t *f = w[i].delta.field;
		double mode[PMODE_COUNT], out[PMODE_COUNT];

		mode[PMODE_USER] = (double)(f[CS_USER] + f[CS_NICE]);
		mode[PMODE_SYS] = (double)(f[CS_SYSTEM] + f[CS_IRQ] + f[CS_SOFTIRQ]);
		mode[PMODE_WAIT] = (double)f[CS_IOWAIT];
		mode[PMODE_IDLE] = (double)f[CS_IDLE];
		purr_split(window_of(v, PURR), files == 2 ? window_of(v, IDLE_PURR) : -1, mode, out);
		for (int m = 0; m < PMODE_COUNT; m++) {
			v->mode[m] += out[m];
			ps->all_mode[m] += out[m];
		}
	}
}

static void purr_mark(void *state, const int *cpus, int n)
{
	struct power_state *ps = state;

	for (int i = 0; i < n; i++) {
		struct purr_values *v = &ps->cpu[cpus[i]];
		memcpy(v->win, v->total, sizeof v->win);
		v->win_ok = v->have[PURR];
	}
}

/* Where some CPU has its PURR file, or had it and failed to read it this
 * pass (which holds its core's window over); not where there is none. */
static bool purr_active(const void *state)
{
	const struct power_state *ps = state;

	return ps->purr.nopen[PURR] > 0 || ps->purr.nfailed[PURR] > 0;
}

static const struct source_basis purr_basis = {
	.name = "purr", .whole_core = true, .active = purr_active,
	.check = purr_check, .measure = purr_measure, .counted = purr_counted, .mark = purr_mark,
};

static const char *const status_names[] = { "purr", "lparcfg" };

const struct sampler_source power_source = {
	.name = "power", .status_names = status_names, .nstatus = 2,
	.state_size = sizeof(struct power_state),
	.init = power_init, .sync = power_sync, .read = power_read, .ask = power_ask,
	.free = power_free, .basis = &purr_basis,
};

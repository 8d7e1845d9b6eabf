#include "source_core.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>

#include "source.h"
#include "sysroot.h"

static const char *const status_names[] = { "core" };

/* room for every possible CPU's groups */
#define CORE_BACKEND_GROUPS(ncpus) ((ncpus) * CORE_NGROUPS)

static void add_event(struct corectr_group_spec *g, uint32_t type, uint64_t config)
{
	g->ev[g->n].type = type;
	g->ev[g->n].config[0] = config;
	g->ev[g->n].config[1] = g->ev[g->n].config[2] = 0;
	g->n++;
}

static void add_term(struct core_state *st, enum core_figure f, int group, int member)
{
	int k = st->nterms[f]++;

	st->term_group[f][k] = group;
	st->term_member[f][k] = member;
}

static bool in_terms(struct core_event e, const struct core_event *terms, int n)
{
	for (int i = 0; i < n; i++)
		if (terms[i].code == e.code && terms[i].umask == e.umask)
			return true;
	return false;
}

/* The groups this machine's plan allows, and which member is which figure. */
static int plan_groups(struct core_state *st, const struct cpuinfo *ci,
		       struct corectr_group_spec *spec)
{
	const struct core_pmu_plan *p = &st->plan;
	int n = 0;

	for (int g = 0; g < CORE_NGROUPS; g++)
		st->group_of[g] = -1;
	if (p->core) {
		struct corectr_group_spec *g = &spec[n];
		g->name = "cycles and instructions";
		add_term(st, CORE_CYCLES, n, g->n);
		add_event(g, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
		add_term(st, CORE_INSTRUCTIONS, n, g->n);
		add_event(g, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
		if (p->zen && p->zen->p0_cycles.code) {
			add_term(st, CORE_REF_CYCLES, n, g->n);
			add_event(g, p->cpu.type, core_amd_config(p->zen->p0_cycles));
		} else if (ci->arch == CPU_ARCH_X86 && strcmp(ci->vendor, "GenuineIntel") == 0) {
			add_term(st, CORE_REF_CYCLES, n, g->n);
			add_event(g, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES);
		}
		st->group_of[CORE_G_HW] = n++;
	}
	if (p->msr) {
		static const enum core_figure fig[CORE_NMSR] = { CORE_TSC, CORE_APERF, CORE_MPERF };
		struct corectr_group_spec *g = &spec[n];
		g->name = "msr";
		for (int i = 0; i < CORE_NMSR; i++)
			if (p->has[i]) {
				add_term(st, fig[i], n, g->n);
				add_event(g, p->msr_pmu.type, p->config[i]);
			}
		if (g->n)
			st->group_of[CORE_G_MSR] = n++;
	}
	if (p->zen) {
		const struct core_family *z = p->zen;
		struct corectr_group_spec *g = &spec[n];

		/* the kernel pairs FP ops with Merge: two counters, a group of its own */
		g->name = "FP operations";
		add_term(st, CORE_FP_OPS, n, 0);
		add_event(g, p->cpu.type, core_amd_config(z->fp_ops));
		st->group_of[CORE_G_FP] = n++;
		/* perf's L2 terms: the four accesses (of which prefetches hit or
		 * missed), then the demand hit and miss, four and two counters */
		g = &spec[n];
		g->name = "L2 accesses";
		for (int i = 0; i < z->nl2_access; i++) {
			struct core_event e = z->l2_access[i];
			add_term(st, CORE_L2_ACCESS, n, g->n);
			if (in_terms(e, z->l2_miss, z->nl2_miss))
				add_term(st, CORE_L2_MISS, n, g->n);
			if (in_terms(e, z->l2_hit, z->nl2_hit))
				add_term(st, CORE_L2_HIT, n, g->n);
			add_event(g, p->cpu.type, core_amd_config(e));
		}
		st->group_of[CORE_G_L2] = n++;
		/* the hit and miss terms that are not accesses: a group of their own */
		g = &spec[n];
		g->name = "L2 demand hits and misses";
		for (int k = 0; k < z->nl2_miss; k++)
			if (!in_terms(z->l2_miss[k], z->l2_access, z->nl2_access)) {
				add_term(st, CORE_L2_MISS, n, g->n);
				add_event(g, p->cpu.type, core_amd_config(z->l2_miss[k]));
			}
		for (int k = 0; k < z->nl2_hit; k++)
			if (!in_terms(z->l2_hit[k], z->l2_access, z->nl2_access)) {
				add_term(st, CORE_L2_HIT, n, g->n);
				add_event(g, p->cpu.type, core_amd_config(z->l2_hit[k]));
			}
		st->group_of[CORE_G_L2STAT] = n++;
	}
	return n;
}

/* What init found, said now and again after a pass whose reads failed. */
static void set_status(const struct source_ctx *ctx, struct core_state *st)
{
	source_set_status(ctx, 0, "%s", st->init_status);
}

static int core_source_init(const struct source_ctx *ctx, void *state)
{
	struct core_state *st = state;
	struct corectr_group_spec spec[CORECTR_MAX_GROUPS];
	char why[256], how[256], words[CTR_ERROR_LEN];
	int ngroups, sts;

	memset(spec, 0, sizeof spec);
	if (!ctx->config->replay[0] && strcmp(sr_root(), "/") != 0) {
		snprintf(st->init_status, sizeof st->init_status, "off: the root %s is not this machine's, "
			 "whose counters perf_event_open would read (a replay trace would serve)",
			 sr_root());
		set_status(ctx, st);
		return 0;
	}
	if ((sts = core_pmu_plan(&st->plan, ctx->cpuinfo)) < 0) {
		snprintf(st->init_status, sizeof st->init_status, "%s", st->plan.why);
		set_status(ctx, st);
		return 0;
	}
	ngroups = plan_groups(st, ctx->cpuinfo, spec);
	if (ngroups == 0) {
		snprintf(st->init_status, sizeof st->init_status, "%s", st->plan.why);
		set_status(ctx, st);
		return 0;
	}
	st->backend = ctr_backend_new_local(ctx->config->replay, CORE_BACKEND_GROUPS(ctx->topo->ncpus),
					    ctx->topo->ncpus, ctx->config->period_ms, how, sizeof how, why, sizeof why);
	if (!st->backend) {
		snprintf(st->init_status, sizeof st->init_status, "%s", why);
		set_status(ctx, st);
		return 0;
	}
	st->period_ms = ctx->config->period_ms;
	sts = corectr_open(&st->ctr, spec, ngroups, ctx->topo->ncpus, ctx->topo->online, st->backend);
	if (sts == -ENOMEM)
		return sts;
	st->on = sts == 0;
	if (!st->on)
		snprintf(st->init_status, sizeof st->init_status, "%s (%s)",
			 ctr_open_error(sts, words, sizeof words), st->ctr.why);
	else if (st->ctr.error)
		snprintf(st->init_status, sizeof st->init_status, "some groups not counted: %s (%s)",
			 ctr_open_error(st->ctr.error, words, sizeof words), st->ctr.why);
	else
		snprintf(st->init_status, sizeof st->init_status, "%s%s%s", st->plan.why, how[0] ? "; " : "", how);
	set_status(ctx, st);
	return 0;
}

static void core_source_sync(const struct source_ctx *ctx, void *state)
{
	struct core_state *st = state;

	if (st->on)
		corectr_sync(&st->ctr, ctx->topo->online, st->backend);
}

static void core_source_read(const struct source_ctx *ctx, void *state, bool cpus_changed)
{
	struct core_state *st = state;

	(void)cpus_changed;
	if (!st->on)
		return;
	if (ctx->config->period_ms != st->period_ms) {
		/* the period changed (-t, smtcpu.control.period): the timers follow */
		st->period_ms = ctx->config->period_ms;
		st->period_error = ctr_local_set_period(st->backend, st->period_ms);
	}
	st->backend->ops->begin_pass(st->backend);
	st->ctr.error = 0;
	corectr_read(&st->ctr, st->backend);
	/* a failed read says so for this pass; the next good one says what init did */
	if (st->ctr.error)
		source_set_status(ctx, 0, "%s", st->ctr.why);
	else if (st->period_error)
		source_set_status(ctx, 0, "%s; the timers kept their period: %s", st->init_status,
				  strerror(-st->period_error));
	else
		source_set_status(ctx, 0, "%s", st->init_status);
}

static void core_source_free(const struct source_ctx *ctx, void *state)
{
	struct core_state *st = state;

	(void)ctx;
	if (st->backend) {
		corectr_close(&st->ctr, st->backend);
		st->backend->ops->destroy(st->backend);
		st->backend = NULL;
	}
}

/* Whether every term of figure f has a count on cpu. */
static bool figure_counted(const struct core_state *st, int cpu, enum core_figure f)
{
	if (!st->on || cpu < 0 || cpu >= st->ctr.ncpus || st->nterms[f] == 0)
		return false;
	for (int k = 0; k < st->nterms[f]; k++)
		if (!st->ctr.have[corectr_cell(&st->ctr, cpu, st->term_group[f][k])])
			return false;
	return true;
}

bool core_total(const struct core_state *st, int cpu, enum core_figure f, double *value)
{
	if (!figure_counted(st, cpu, f))
		return false;
	*value = 0;
	for (int k = 0; k < st->nterms[f]; k++)
		*value += corectr_total(&st->ctr, cpu, st->term_group[f][k], st->term_member[f][k]);
	return true;
}

bool core_window(const struct core_state *st, int cpu, enum core_figure f, double *value,
		 double *seconds)
{
	if (!figure_counted(st, cpu, f))
		return false;
	*value = 0;
	*seconds = 0;
	for (int k = 0; k < st->nterms[f]; k++) {
		int cell = corectr_cell(&st->ctr, cpu, st->term_group[f][k]);
		if (!st->ctr.fresh[cell])
			return false;
		*value += st->ctr.window[cell * CTR_GROUP_MAX + st->term_member[f][k]];
		*seconds = st->ctr.window_ns[cell] / 1e9;
	}
	return *seconds > 0;
}

bool core_duty(const struct core_state *st, int cpu, enum core_group g, double *duty)
{
	int cell;

	if (!st->on || cpu < 0 || cpu >= st->ctr.ncpus || st->group_of[g] < 0)
		return false;
	cell = corectr_cell(&st->ctr, cpu, st->group_of[g]);
	if (st->ctr.slot[cell].handle < 0 || !st->ctr.have[cell])
		return false;
	*duty = st->ctr.duty[cell];
	return true;
}

bool core_reads(const struct core_state *st, int cpu, uint64_t *interrupting, uint64_t *on_cpu)
{
	if (!st->on || cpu < 0 || cpu >= st->ctr.ncpus)
		return false;
	*interrupting = st->ctr.reads_interrupting[cpu];
	*on_cpu = st->ctr.reads_on_cpu[cpu];
	return *interrupting + *on_cpu > 0;
}

const struct sampler_source core_source = {
	.name = "core", .status_names = status_names, .nstatus = 1,
	.state_size = sizeof(struct core_state),
	.init = core_source_init, .sync = core_source_sync, .read = core_source_read,
	.free = core_source_free,
};

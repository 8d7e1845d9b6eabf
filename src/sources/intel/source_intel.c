#include "source_intel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modelchoice.h"
#include "pmu.h"
#include "source.h"

static const char *const status_names[] = { "intel_smt" };

static void status(const struct source_ctx *ctx, const char *fmt, const char *why)
{
	source_set_status(ctx, 0, fmt, why);
}

/* The status from what the last opens and this pass's reads found: said
 * after every one of them, not once at start-up. */
static void report(const struct source_ctx *ctx, const struct intel_state *st)
{
	const struct corectr *c = &st->ctr;
	int err = c->open_error ? c->open_error : c->read_error;
	int cpu = c->open_error ? c->open_cpu : c->read_cpu;
	char text[200], words[CTR_ERROR_LEN];

	if (err == 0) {
		status(ctx, "%s", "ok");
		return;
	}
	snprintf(text, sizeof text, "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE and %s: %s on cpu %d: %s",
		 st->ref_name, c->open_error ? "cannot open them" : "cannot read them", cpu,
		 c->open_error ? ctr_open_error(err, words, sizeof words) : strerror(-err));
	status(ctx, "%s", text);
}

/* Closes the groups and the backend, frees the arrays: the source is off. */
static void release(struct intel_state *st)
{
	if (st->backend) {
		corectr_close(&st->ctr, st->backend);
		st->backend->ops->destroy(st->backend);
	}
	free(st->clk);
	st->clk = NULL;
	st->backend = NULL;
	st->ncpus = 0;
}

/* Each thread count's shares, as the configuration and processor choose. */
static void note_shares(const struct source_ctx *ctx, struct intel_state *st)
{
	for (int n = 1; n <= 2; n++) {
		const struct smt_table *t = smt_table_for(ctx->config, ctx->cpuinfo, n);

		st->share[n][0] = t ? smt_thread_share(t, 1) : 1;
		st->share[n][1] = t ? smt_thread_share(t, 2) : 0.5;
	}
}

static int intel_source_init(const struct source_ctx *ctx, void *state)
{
	struct intel_state *st = state;
	const struct intel_smt_events *e;
	struct corectr_group_spec spec = { .name = "SMT overlap", .n = 2 };
	struct pmu_setting one[2], ref[2];
	struct pmu pmu;
	char why[256];
	int n = ctx->topo->ncpus;

	if (strcmp(ctx->cpuinfo->vendor, "GenuineIntel") != 0) {
		status(ctx, "%s", "not an Intel CPU");
		return 0;
	}
	st->kind = intel_smt_kind(ctx->cpuinfo->family, ctx->cpuinfo->model);
	if ((e = intel_smt_events(st->kind)) == NULL) {
		char what[64];
		snprintf(what, sizeof what, "family %d model 0x%X", ctx->cpuinfo->family,
			 ctx->cpuinfo->model);
		status(ctx, "no SMT overlap events known for this Intel model (%s)", what);
		return 0;
	}
	/* The core PMU's format: event config:0-7, umask config:8-15
	 * (arch/x86/events/intel/core.c), read rather than assumed. */
	if (pmu_discover_core(&pmu, "cpu", why, sizeof why) < 0) {
		status(ctx, "%s", why);
		return 0;
	}
	one[0] = ref[0] = (struct pmu_setting){ "event", e->event };
	one[1] = (struct pmu_setting){ "umask", e->one_umask };
	ref[1] = (struct pmu_setting){ "umask", e->ref_umask };
	if (pmu_encode(&pmu, one, 2, spec.ev[0].config, why, sizeof why) < 0 ||
	    pmu_encode(&pmu, ref, 2, spec.ev[1].config, why, sizeof why) < 0) {
		status(ctx, "%s", why);
		return 0;
	}
	spec.ev[0].type = spec.ev[1].type = pmu.type;
	st->ref_name = e->ref_name;
	if ((st->backend = ctr_backend_new(ctx->config->replay, n, why, sizeof why)) == NULL) {
		status(ctx, "%s", why);
		return 0;
	}
	st->ncpus = n;
	note_shares(ctx, st);
	/* None open is a status (which CPU refused, and why), not an end:
	 * the CPUs that come online later are tried again. */
	if ((st->clk = calloc((size_t)n, sizeof *st->clk)) == NULL ||
	    corectr_open(&st->ctr, &spec, 1, n, ctx->topo->online, st->backend) == -ENOMEM) {
		release(st);
		snprintf(why, sizeof why, "out of memory for %d CPUs' counters", n);
		status(ctx, "%s", why);
		return 0;
	}
	report(ctx, st);
	return 0;
}

static void intel_source_sync(const struct source_ctx *ctx, void *state)
{
	struct intel_state *st = state;

	if (st->backend) {
		note_shares(ctx, st);
		corectr_sync(&st->ctr, ctx->topo->online, st->backend);
		report(ctx, st);
	}
}

static void intel_source_read(const struct source_ctx *ctx, void *state, bool cpus_changed)
{
	struct intel_state *st = state;
	const struct corectr *c = &st->ctr;

	(void)cpus_changed;
	if (!st->backend)
		return;
	for (int cpu = 0; cpu < st->ncpus; cpu++)
		st->clk[cpu].fresh = false;
	st->backend->ops->begin_pass(st->backend);
	corectr_read(&st->ctr, st->backend);
	report(ctx, st);
	for (int i = 0; i < ctx->topo->ncores; i++) {
		const struct topo_core *core = &ctx->topo->cores[i];
		double one[2] = { 0, 0 }, ref[2] = { 0, 0 };
		struct intel_smt_window w;
		int n = core->nthreads, ok = n == 1 || n == 2;

		/* each thread's deltas this pass, scaled for time off the counters */
		for (int k = 0; k < n && ok; k++) {
			int cell = corectr_cell(c, core->cpus[k], 0);

			if ((ok = c->fresh[cell]) != 0) {
				one[k] = c->window[cell * CTR_GROUP_MAX];
				ref[k] = c->window[cell * CTR_GROUP_MAX + 1];
			}
		}
		if (!ok)
			continue;
		if (n == 1)	/* the sibling is offline, halted: all of it is alone */
			one[1] = ref[1] = 0;
		intel_smt_overlap(st->kind, one, ref, &w);
		double both = n == 2 ? w.both : 0;
		double c1 = st->share[n][0], c2 = st->share[n][1];
		for (int k = 0; k < n; k++) {
			struct intel_clock *v = &st->clk[core->cpus[k]];

			v->clock += c1 * w.alone[k] + c2 * both;
			v->unhalted += w.alone[k] + both;
			v->fresh = true;
		}
	}
}

static void intel_source_free(const struct source_ctx *ctx, void *state)
{
	(void)ctx;
	release(state);
}

/* The measured basis "hw": the counters' calibrated share of each thread's
 * unhalted time over the core's window, applied to its busy time (the
 * crystal's rate need not be known). */
static bool hw_window(const struct intel_clock *v, double busy_ms, double *ms)
{
	double unhalted = v->unhalted - v->win_unhalted;

	if (!v->fresh || !v->win_ok)
		return false;
	*ms = unhalted <= 0 ? 0 : (v->clock - v->win_clock) / unhalted * busy_ms;
	return true;
}

static bool hw_measure(void *state, const int *cpus, int n, const struct basis_thread *w,
		       double *ms)
{
	const struct intel_state *st = state;

	if (st->clk == NULL)
		return false;
	for (int i = 0; i < n; i++)
		if (!hw_window(&st->clk[cpus[i]], w[i].busy_ms, &ms[i]))
			return false;
	return true;
}

/* smt.hw.throughput_cpu: what the counters say, whatever the basis. */
static void hw_counted(void *state, const int *cpus, int n, const struct basis_thread *w)
{
	struct intel_state *st = state;
	double ms;

	for (int i = 0; st->clk && i < n; i++)
		if (hw_window(&st->clk[cpus[i]], w[i].busy_ms, &ms)) {
			st->clk[cpus[i]].throughput += ms;
			st->clk[cpus[i]].have = true;
		}
}

static void hw_mark(void *state, const int *cpus, int n)
{
	struct intel_state *st = state;

	for (int i = 0; st->clk && i < n; i++) {
		struct intel_clock *v = &st->clk[cpus[i]];
		v->win_clock = v->clock;
		v->win_unhalted = v->unhalted;
		v->win_ok = v->fresh;
	}
}

static bool hw_active(const void *state)
{
	const struct intel_state *st = state;

	return st->clk != NULL && st->ctr.nopen > 0;
}

static const struct source_basis hw_basis = {
	.name = "hw", .active = hw_active, .measure = hw_measure, .counted = hw_counted, .mark = hw_mark,
};

const struct sampler_source intel_source = {
	.name = "intel", .status_names = status_names, .nstatus = 1,
	.state_size = sizeof(struct intel_state),
	.init = intel_source_init, .sync = intel_source_sync, .read = intel_source_read,
	.free = intel_source_free, .basis = &hw_basis,
};

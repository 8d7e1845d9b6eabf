#include "source_intel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mux.h"
#include "pmu.h"
#include "modelchoice.h"
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
	int err = st->open_error ? st->open_error : st->read_error;
	int cpu = st->open_error ? st->open_cpu : st->read_cpu;
	char text[200];

	if (err == 0) {
		status(ctx, "%s", "ok");
		return;
	}
	snprintf(text, sizeof text, "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE and %s: %s on cpu %d: %s",
		 st->ref_name, st->open_error ? "cannot open them" : "cannot read them", cpu,
		 st->open_error ? ctr_open_error(err) : strerror(-err));
	status(ctx, "%s", text);
}

/* Opens a group on every online CPU that has none, closes those of CPUs
 * gone offline. */
static void open_groups(const struct source_ctx *ctx, struct intel_state *st)
{
	st->open_error = 0;
	for (int cpu = 0; cpu < st->ncpus; cpu++) {
		bool online = cpu < ctx->topo->ncpus && ctx->topo->online[cpu];

		if (online && st->handle[cpu] < 0) {
			int h = st->backend->ops->open_group(st->backend, cpu, st->ev, 2);
			if (h < 0) {
				if (st->open_error == 0) {
					st->open_error = h;
					st->open_cpu = cpu;
				}
				continue;
			}
			st->handle[cpu] = h;
			st->have_last[cpu] = false;
		} else if (!online && st->handle[cpu] >= 0) {
			st->backend->ops->close_group(st->backend, st->handle[cpu]);
			st->handle[cpu] = -1;
		}
	}
}

/* Closes the groups and the backend, frees the arrays: the source is off. */
static void release(struct intel_state *st)
{
	if (st->backend) {
		for (int cpu = 0; st->handle && cpu < st->ncpus; cpu++)
			if (st->handle[cpu] >= 0)
				st->backend->ops->close_group(st->backend, st->handle[cpu]);
		st->backend->ops->destroy(st->backend);
	}
	free(st->handle);
	free(st->last);
	free(st->have_last);
	free(st->fresh);
	free(st->one);
	free(st->ref);
	free(st->clk);
	st->clk = NULL;
	st->backend = NULL;
	st->handle = NULL;
	st->last = NULL;
	st->have_last = st->fresh = NULL;
	st->one = st->ref = NULL;
	st->ncpus = 0;
}

static int intel_source_init(const struct source_ctx *ctx, void *state)
{
	struct intel_state *st = state;
	const struct intel_smt_events *e;
	struct pmu_setting one[2], ref[2];
	struct pmu pmu;
	char why[256];
	int n = ctx->topo->ncpus;

	for (int i = 0; i < 2; i++)
		st->ev[i].type = 0;
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
	if (pmu_encode(&pmu, one, 2, st->ev[0].config, why, sizeof why) < 0 ||
	    pmu_encode(&pmu, ref, 2, st->ev[1].config, why, sizeof why) < 0) {
		status(ctx, "%s", why);
		return 0;
	}
	st->ev[0].type = st->ev[1].type = pmu.type;
	st->ref_name = e->ref_name;
	if ((st->backend = ctr_backend_new(ctx->config->replay, n, why, sizeof why)) == NULL) {
		status(ctx, "%s", why);
		return 0;
	}
	st->ncpus = n;
	st->handle = malloc((size_t)n * sizeof *st->handle);
	st->last = calloc((size_t)n, sizeof *st->last);
	st->have_last = calloc((size_t)n, sizeof *st->have_last);
	st->fresh = calloc((size_t)n, sizeof *st->fresh);
	st->one = calloc((size_t)n, sizeof *st->one);
	st->ref = calloc((size_t)n, sizeof *st->ref);
	st->clk = calloc((size_t)n, sizeof *st->clk);
	if (!st->clk || !st->handle || !st->last || !st->have_last || !st->fresh || !st->one || !st->ref) {
		release(st);
		snprintf(why, sizeof why, "out of memory for %d CPUs' counters", n);
		status(ctx, "%s", why);
		return 0;
	}
	for (int cpu = 0; cpu < n; cpu++)
		st->handle[cpu] = -1;
	open_groups(ctx, st);
	report(ctx, st);
	return 0;
}

static void intel_source_sync(const struct source_ctx *ctx, void *state)
{
	struct intel_state *st = state;

	if (st->backend) {
		open_groups(ctx, st);
		report(ctx, st);
	}
}

/* Each thread's deltas this pass, scaled for time off the counters. */
static void read_cpus(struct intel_state *st)
{
	st->read_error = 0;
	for (int cpu = 0; cpu < st->ncpus; cpu++) {
		struct ctr_reading now;
		double est[2], duty;
		int sts;

		st->fresh[cpu] = false;
		if (st->handle[cpu] < 0)
			continue;
		if ((sts = st->backend->ops->read_group(st->backend, st->handle[cpu], &now)) < 0) {
			if (st->read_error == 0) {
				st->read_error = sts;
				st->read_cpu = cpu;
			}
			continue;
		}
		if (st->have_last[cpu]) {
			enum mux_window m = mux_estimate(&st->last[cpu], &now, 2, est, &duty);
			if (m == MUX_NOT_RUN)
				continue;	/* keep the baseline */
			if (m == MUX_COUNTED) {
				st->one[cpu] = est[0];
				st->ref[cpu] = est[1];
				st->fresh[cpu] = true;
			}
		}
		st->last[cpu] = now;
		st->have_last[cpu] = true;
	}
}

static void intel_source_read(const struct source_ctx *ctx, void *state, bool cpus_changed)
{
	struct intel_state *st = state;

	(void)cpus_changed;
	if (!st->backend)
		return;
	for (int cpu = 0; cpu < st->ncpus; cpu++)
		st->clk[cpu].fresh = false;
	st->backend->ops->begin_pass(st->backend);
	read_cpus(st);
	report(ctx, st);
	for (int i = 0; i < ctx->topo->ncores; i++) {
		const struct topo_core *c = &ctx->topo->cores[i];
		const struct smt_table *t = smt_table_for(ctx->config, ctx->cpuinfo, c->nthreads);
		double one[2] = { 0, 0 }, ref[2] = { 0, 0 };
		struct intel_smt_window w;
		int n = c->nthreads, ok = n == 1 || n == 2;

		for (int k = 0; k < n && ok; k++) {
			ok = st->fresh[c->cpus[k]];
			if (ok) {
				one[k] = st->one[c->cpus[k]];
				ref[k] = st->ref[c->cpus[k]];
			}
		}
		if (!ok)
			continue;
		if (n == 1)	/* the sibling is offline, halted: all of it is alone */
			one[1] = ref[1] = 0;
		intel_smt_overlap(st->kind, one, ref, &w);
		double both = n == 2 ? w.both : 0;
		double c1 = t ? smt_thread_share(t, 1) : 1, c2 = t ? smt_thread_share(t, 2) : 0.5;
		for (int k = 0; k < n; k++) {
			struct intel_clock *v = &st->clk[c->cpus[k]];

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

static const struct source_basis hw_basis = {
	.name = "hw", .measure = hw_measure, .counted = hw_counted, .mark = hw_mark,
};

const struct sampler_source intel_source = {
	.name = "intel", .status_names = status_names, .nstatus = 1,
	.state_size = sizeof(struct intel_state),
	.init = intel_source_init, .sync = intel_source_sync, .read = intel_source_read,
	.free = intel_source_free, .basis = &hw_basis,
};

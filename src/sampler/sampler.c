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
 * bounds allow for either (sample_core).  A thread new to the core starts
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

/* The bases that may measure this pass, in the table's order: asked once a
 * pass, so that a machine without them pays nothing per core. */
static void find_bases(struct sampler *s)
{
	s->nbasis = 0;
	for (int i = 0; i < s->nsources; i++) {
		const struct source_basis *b = s->source[i]->basis;
		bool on = b && s->state[i] && !s->stopped[i] && (!b->active || b->active(s->state[i]));

		if (on)
			s->basis[s->nbasis++] = i;
		s->basis_turned_on |= on && !s->basis_on[i];
		s->basis_on[i] = on;
	}
}

/* The core's next window begins now: /proc/stat's baselines of every thread
 * that has a reading, and every measured basis's. */
static void rebase_core(struct sampler *s, const struct topo_core *c)
{
	for (int j = 0; j < c->nthreads; j++) {
		int cpu = c->cpus[j];

		if (s->stat.seen[cpu]) {
			s->cpu[cpu].prev = s->stat.now[cpu];
			s->cpu[cpu].have_prev = true;
		}
	}
	for (int k = 0; k < s->nbasis; k++) {
		int i = s->basis[k];
		s->source[i]->basis->mark(s->state[i], c->cpus, c->nthreads);
	}
}

/*
 * Each online thread's /proc/stat over the core's window (w, and its busy
 * and elapsed ticks), or 0 when the window cannot be used.  The model needs
 * one window for all threads of a core, and a measured basis is taken over
 * the same window as /proc/stat, so:
 *  - a thread without a reading this pass (a malformed line, or a basis
 *    missing one), or no time passed on some thread's /proc/stat clock
 *    (passes within one USER_HZ tick): the window is held over, baselines
 *    stay, and the next pass covers both, so what a basis counted
 *    meanwhile is not lost;
 *  - a thread new to the core in a window that holds a change of make-up:
 *    it has no window (known[i] false), the others' is counted;
 *  - otherwise a thread new to the core, a basis whose baselines cannot
 *    serve, or a counter gone backwards: every baseline of the core starts
 *    again from now, and this one window is not counted.
 */
static int threads_window(struct sampler *s, const struct topo_core *c, struct basis_thread *w,
		       double *busy, double *window, bool *known)
{
	bool hold = false, restart = false, step = s->core[c->first_cpu].step_threads > 0;
	double elapsed = 0;

	if (s->basis_turned_on) {	/* its marks were not kept: start again */
		rebase_core(s, c);
		return 0;
	}
	for (int k = 0; k < s->nbasis; k++) {
		int i = s->basis[k];
		const struct source_basis *b = s->source[i]->basis;
		enum basis_check r = b->check ? b->check(s->state[i], c->cpus, c->nthreads)
					      : BASIS_GO;

		hold |= r == BASIS_HOLD;
		restart |= r == BASIS_RESTART;
	}
	for (int i = 0; i < c->nthreads; i++) {
		int cpu = c->cpus[i];
		const struct smt_cpu_values *v = &s->cpu[cpu];
		const struct cpustat_times *now = &s->stat.now[cpu];

		if (!s->stat.seen[cpu] || hold)
			return 0;
		known[i] = v->have_prev && !restart;
		busy[i] = window[i] = 0;
		memset(&w[i], 0, sizeof w[i]);
		if (!known[i] && step)
			continue;
		if (!known[i]) {
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
		busy[i] = (double)(cpustat_busy(now) - cpustat_busy(&v->prev));
		window[i] = (double)(cpustat_window(now) - cpustat_window(&v->prev));
		for (int k = 0; k < CS_NFIELDS; k++)
			w[i].delta.field[k] = now->field[k] - v->prev.field[k];
		w[i].busy_ms = busy[i] * s->ms_per_tick;
		elapsed += window[i];
	}
	if (elapsed <= 0 && step) {	/* no thread online throughout */
		rebase_core(s, c);
		s->core[c->first_cpu].step_threads = 0;
	}
	/* A thread whose clock has not moved a tick has no busy fraction
	 * (0 / 0), which the model would take for idle: a sibling credited
	 * as alone beside a thread that was busy throughout.  Passes that
	 * follow the clients can come within a tick of each other: the window
	 * is held over until every thread's has moved. */
	for (int i = 0; i < c->nthreads && elapsed > 0; i++)
		if (known[i] && window[i] <= 0)
			return 0;
	return elapsed > 0;
}

/* The first basis, in the table's order, that measured every thread of the
 * core (*all), or else every known one, into measured[] by thread; NULL
 * when none did. */
static const struct source_basis *measure_core(struct sampler *s, const struct topo_core *c,
					       const struct basis_thread *w, const bool *known,
					       double *measured, bool *all)
{
	int cpus[SMT_MAX_THREADS], at[SMT_MAX_THREADS], n = 0;
	struct basis_thread kw[SMT_MAX_THREADS];
	double ms[SMT_MAX_THREADS];

	*all = true;
	for (int i = 0; i < c->nthreads; i++)
		*all &= known[i];
	if (!*all) {	/* a thread new to the core: the basis may know it */
		for (int k = 0; k < s->nbasis; k++) {
			int i = s->basis[k];
			if (s->source[i]->basis->measure(s->state[i], c->cpus, c->nthreads, w,
							 measured))
				return s->source[i]->basis;
		}
		*all = false;
	}
	for (int i = 0; i < c->nthreads; i++)
		if (known[i]) {
			cpus[n] = c->cpus[i];
			kw[n] = w[i];
			at[n++] = i;
		}
	for (int k = 0; k < s->nbasis; k++) {
		int i = s->basis[k];
		if (s->source[i]->basis->measure(s->state[i], cpus, n, kw, ms)) {
			for (int j = 0; j < n; j++)
				measured[at[j]] = ms[j];
			return s->source[i]->basis;
		}
	}
	return NULL;
}

/*
 * A window that holds a change of make-up is credited by the model of the
 * make-up now, the threads new to the core idle; its bounds allow for
 * either make-up: at least each thread's busy time at the share of every
 * thread of the larger busy (c(S) of its table), at most all of it at the
 * share of one alone.
 */
static void step_bounds(const struct sampler *s, const struct smt_core_values *cv,
			const double *b, int n, struct smt_core_estimate *e)
{
	const struct smt_table *wide = smt_table_for(&s->config, &s->cpuinfo, cv->step_threads);
	double least = smt_thread_share(wide, cv->step_threads);
	double most = smt_thread_share(wide, 1) > smt_thread_share(cv->table, 1) ?
		      smt_thread_share(wide, 1) : smt_thread_share(cv->table, 1);

	e->core_lo = e->core_hi = 0;
	for (int i = 0; i < n; i++) {
		double lo = b[i] * least, hi = b[i] * most;
		e->lo[i] = lo < e->est[i] ? lo : e->est[i];
		e->hi[i] = hi > e->est[i] ? hi : e->est[i];
		e->core_lo += e->lo[i];
		e->core_hi += e->hi[i];
	}
}

static void sample_core(struct sampler *s, const struct topo_core *c)
{
	struct basis_thread w[SMT_MAX_THREADS];
	double b[SMT_MAX_THREADS], busy[SMT_MAX_THREADS], window[SMT_MAX_THREADS];
	double measured[SMT_MAX_THREADS];
	bool known[SMT_MAX_THREADS], all;
	struct smt_core_values *cv = &s->core[c->first_cpu];
	const struct source_basis *use;
	struct smt_core_estimate e;
	double mean_window = 0, level = 0;
	int n = c->nthreads, nknown = 0;

	if (!threads_window(s, c, w, busy, window, known))
		return;
	/* The first basis, in the table's order, that measured every thread;
	 * then what each derives from the window; then the next one begins. */
	use = measure_core(s, c, w, known, measured, &all);
	for (int k = 0; k < s->nbasis; k++) {
		int i = s->basis[k];
		if (s->source[i]->basis->counted)
			s->source[i]->basis->counted(s->state[i], c->cpus, n, w);
	}
	rebase_core(s, c);
	for (int i = 0; i < n; i++) {
		b[i] = window[i] > 0 ? busy[i] / window[i] : 0;
		nknown += known[i];
	}
	for (int i = 0; i < n; i++)
		if (known[i]) {
			mean_window += window[i] / nknown;
			level += b[i] > 1 ? 1 : b[i];
		}
	smt_estimate_core(cv->table, b, n, &e);
	if (cv->step_threads)
		step_bounds(s, cv, b, n, &e);

	/* A core's estimate is the sum of its threads' (each over its own
	 * window); its bounds and capacity are the core's own, over the mean.
	 * A measured basis is the value, and the bounds close on it. */
	double core_ms = mean_window * s->ms_per_tick, est = 0, model = 0, left;
	double lo = e.core_lo * core_ms, hi = e.core_hi * core_ms, cap = e.capacity * core_ms;

	for (int i = 0; i < n; i++) {
		struct smt_cpu_values *v = &s->cpu[c->cpus[i]];
		double ms = window[i] * s->ms_per_tick, m = e.est[i] * ms;

		if (!known[i] && !(use && all))
			continue;
		model += m;
		v->busy += w[i].busy_ms;
		v->elapsed += ms;
		if (use) {
			v->throughput += measured[i];
			v->lower += measured[i];
			v->upper += measured[i];
			v->basis = use->name;
			est += measured[i];
		} else {
			v->throughput += m;
			v->lower += e.lo[i] * ms;
			v->upper += e.hi[i] * ms;
			v->basis = "model";
			est += m;
		}
	}
	if (use) {
		lo = hi = est;
		if (use->whole_core)
			cap = core_ms;	/* (the basis shares out the whole core) */
		/* in cores over the window: where /proc/stat missed ticks (a
		 * guest's vCPU kept waiting), what either figure covers says the
		 * window was at least that long */
		double span = core_ms;

		if (est > span)
			span = est;
		if (model > span)
			span = model;
		cv->model_error = (model - est) / span;
	} else if (e.core_est > 0) {
		/* The threads' windows may differ by a tick or more: the bounds
		 * are the core's, as fractions of its estimate, so that they hold
		 * the value counted over those windows. */
		lo = est * e.core_lo / e.core_est;
		hi = est * e.core_hi / e.core_est;
	}
	cv->step_threads = 0;
	cv->have_error = use != NULL;
	cv->basis = use ? use->name : "model";
	cv->model_cpu += model;
	cv->throughput += est;
	cv->lower += lo;
	cv->upper += hi;
	cv->capacity += cap;
	left = cap - est - cv->over;
	cv->over = left < 0 ? -left : 0;
	left = left > 0 ? left : 0;
	cv->capacity_left += left;
	cv->level = level;
	cv->have_level = true;
	cv->counted = true;
	s->all.throughput += est;
	s->all.lower += lo;
	s->all.upper += hi;
	s->all.capacity += cap;
	s->all.capacity_left += left;
}

/*
 * A CPU gone offline since the last pass: /proc/stat has no line for it any
 * more, but a measured basis may have read its clock as it went.  Its last
 * stretch then counts for it, its old core and the machine, and is carried
 * as used against that core's next window (a core that lives on).
 */
static void count_departed(struct sampler *s)
{
	for (int cpu = 0; cpu < s->topo.ncpus; cpu++) {
		struct smt_core_values *cv;
		struct basis_thread w;
		int old = s->departed[cpu];
		double ms;

		if (old < 0)
			continue;
		s->departed[cpu] = -1;
		if (s->basis_turned_on)		/* (its marks were not kept) */
			continue;
		memset(&w, 0, sizeof w);
		for (int k = 0; k < s->nbasis; k++) {
			int i = s->basis[k];
			if (!s->source[i]->basis->measure(s->state[i], &cpu, 1, &w, &ms))
				continue;
			s->cpu[cpu].throughput += ms;
			s->cpu[cpu].lower += ms;
			s->cpu[cpu].upper += ms;
			cv = &s->core[old];
			cv->throughput += ms;
			cv->lower += ms;
			cv->upper += ms;
			if (s->topo.core_of[old] >= 0 &&
			    s->topo.cores[s->topo.core_of[old]].first_cpu == old)
				cv->over += ms;
			s->all.throughput += ms;
			s->all.lower += ms;
			s->all.upper += ms;
			break;
		}
	}
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
	find_bases(s);
	if (changed)
		count_departed(s);
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
			sample_core(s, &s->topo.cores[i]);
		s->basis_turned_on = false;	/* every core has started again */
	}
	s->passes++;
	s->pass_time += mono_seconds() - start;
	return changed;
}

#include "core_account.h"

#include <stdbool.h>
#include <string.h>

#include "log.h"
#include "modelchoice.h"
#include "source.h"

/* One core's window, thread by thread, as a pass works it out. */
struct core_window {
	struct basis_thread w[SMT_MAX_THREADS];	/* each thread's /proc/stat over it */
	double busy[SMT_MAX_THREADS];		/* busy ticks */
	double ticks[SMT_MAX_THREADS];		/* elapsed ticks */
	bool known[SMT_MAX_THREADS];		/* online throughout: it has a window */
	double frac[SMT_MAX_THREADS];		/* busy fraction, the model's input */
	double mean_ticks;			/* the known threads' mean window */
	double level;				/* busy threads, each at most 1 */
	double busy_ticks;			/* the known threads' busy, each at most its window */
	/* The basis that measured it (measure_core), NULL for the model, and
	 * its ms by thread. */
	const struct source_basis *basis;
	bool all;
	double measured[SMT_MAX_THREADS];
};

/* What a core's window counts, ms: its value (the basis's or the model's),
 * the model's estimate, bounds and capacity. */
struct core_count {
	double est, model, lo, hi, cap;
};

/* The bases that may measure this pass, in the table's order: asked once a
 * pass, so that a machine without them pays nothing per core. */
void sampler_find_bases(struct sampler *s)
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

/* Every basis's say on the core's window (each is asked): BASIS_HOLD if one
 * holds it, else BASIS_RESTART if one cannot serve, else BASIS_GO. */
static enum basis_check check_bases(struct sampler *s, const struct topo_core *c)
{
	bool hold = false, restart = false;

	for (int k = 0; k < s->nbasis; k++) {
		int i = s->basis[k];
		const struct source_basis *b = s->source[i]->basis;
		enum basis_check r = b->check ? b->check(s->state[i], c->cpus, c->nthreads)
					      : BASIS_GO;

		hold |= r == BASIS_HOLD;
		restart |= r == BASIS_RESTART;
	}
	return hold ? BASIS_HOLD : restart ? BASIS_RESTART : BASIS_GO;
}

/* The i-th thread's /proc/stat since its baseline, into win; false when a
 * counter went backwards. */
static bool thread_since_baseline(const struct sampler *s, int cpu, int i,
				  struct core_window *win)
{
	const struct smt_cpu_values *v = &s->cpu[cpu];
	const struct cpustat_times *now = &s->stat.now[cpu];

	for (int k = 0; k < CS_NFIELDS; k++)
		if (now->field[k] < v->prev.field[k]) {
			smt_log_once(SMT_LOG_WARNING, "cpu%d: /proc/stat times went backwards; "
				     "counting starts again from the new values", cpu);
			return false;
		}
	win->busy[i] = (double)(cpustat_busy(now) - cpustat_busy(&v->prev));
	win->ticks[i] = (double)(cpustat_window(now) - cpustat_window(&v->prev));
	for (int k = 0; k < CS_NFIELDS; k++)
		win->w[i].delta.field[k] = now->field[k] - v->prev.field[k];
	win->w[i].busy_ms = win->busy[i] * s->ms_per_tick;
	return true;
}

/*
 * Each online thread's /proc/stat over the core's window (its busy and
 * elapsed ticks), or 0 when the window cannot be used.  The model needs
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
static int threads_window(struct sampler *s, const struct topo_core *c, struct core_window *win)
{
	bool step = s->core[c->first_cpu].step_threads > 0;
	enum basis_check check;
	double elapsed = 0;

	if (s->basis_turned_on) {	/* its marks were not kept: start again */
		rebase_core(s, c);
		return 0;
	}
	check = check_bases(s, c);
	for (int i = 0; i < c->nthreads; i++) {
		int cpu = c->cpus[i];

		if (!s->stat.seen[cpu] || check == BASIS_HOLD)
			return 0;
		win->known[i] = s->cpu[cpu].have_prev && check != BASIS_RESTART;
		win->busy[i] = win->ticks[i] = 0;
		memset(&win->w[i], 0, sizeof win->w[i]);
		if (!win->known[i] && step)
			continue;
		if (!win->known[i] || !thread_since_baseline(s, cpu, i, win)) {
			rebase_core(s, c);
			return 0;
		}
		elapsed += win->ticks[i];
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
		if (win->known[i] && win->ticks[i] <= 0)
			return 0;
	return elapsed > 0;
}

/* The first basis, in the table's order, that measured every thread of the
 * core (win->all), or else every known one, into win->measured by thread;
 * NULL when none did. */
static const struct source_basis *measure_core(struct sampler *s, const struct topo_core *c,
					       struct core_window *win)
{
	int cpus[SMT_MAX_THREADS], at[SMT_MAX_THREADS], n = 0;
	struct basis_thread kw[SMT_MAX_THREADS];
	double ms[SMT_MAX_THREADS];

	win->all = true;
	for (int i = 0; i < c->nthreads; i++)
		win->all &= win->known[i];
	if (!win->all) {	/* a thread new to the core: the basis may know it */
		for (int k = 0; k < s->nbasis; k++) {
			int i = s->basis[k];
			if (s->source[i]->basis->measure(s->state[i], c->cpus, c->nthreads, win->w,
							 win->measured))
				return s->source[i]->basis;
		}
	}
	for (int i = 0; i < c->nthreads; i++)
		if (win->known[i]) {
			cpus[n] = c->cpus[i];
			kw[n] = win->w[i];
			at[n++] = i;
		}
	for (int k = 0; k < s->nbasis; k++) {
		int i = s->basis[k];
		if (s->source[i]->basis->measure(s->state[i], cpus, n, kw, ms)) {
			for (int j = 0; j < n; j++)
				win->measured[at[j]] = ms[j];
			return s->source[i]->basis;
		}
	}
	return NULL;
}

/* Every basis derives what it will from a counted window, whichever was
 * taken. */
static void tell_bases_counted(struct sampler *s, const struct topo_core *c,
			       const struct core_window *win)
{
	for (int k = 0; k < s->nbasis; k++) {
		int i = s->basis[k];
		if (s->source[i]->basis->counted)
			s->source[i]->basis->counted(s->state[i], c->cpus, c->nthreads, win->w);
	}
}

/* Each thread's busy fraction, the known threads' mean window and the
 * core's level of busy threads. */
static void busy_fractions(struct core_window *win, int n)
{
	int nknown = 0;

	win->mean_ticks = win->level = win->busy_ticks = 0;
	for (int i = 0; i < n; i++) {
		win->frac[i] = win->ticks[i] > 0 ? win->busy[i] / win->ticks[i] : 0;
		nknown += win->known[i];
	}
	for (int i = 0; i < n; i++)
		if (win->known[i]) {
			win->mean_ticks += win->ticks[i] / nknown;
			win->level += win->frac[i] > 1 ? 1 : win->frac[i];
			win->busy_ticks += win->busy[i] < win->ticks[i] ? win->busy[i] : win->ticks[i];
		}
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

/* Each thread counted over its own window: the basis's measure where one
 * measured the core, else the model's estimate and bounds.  A thread new to
 * the core counts only when the basis measured it too. */
static void credit_threads(struct sampler *s, const struct topo_core *c,
			   const struct core_window *win, const struct smt_core_estimate *e,
			   struct core_count *k)
{
	const struct source_basis *use = win->basis;

	k->est = k->model = 0;
	for (int i = 0; i < c->nthreads; i++) {
		struct smt_cpu_values *v = &s->cpu[c->cpus[i]];
		double ms = win->ticks[i] * s->ms_per_tick, m = e->est[i] * ms;

		if (!win->known[i] && !(use && win->all))
			continue;
		k->model += m;
		v->busy += win->w[i].busy_ms;
		v->elapsed += ms;
		if (use) {
			v->throughput += win->measured[i];
			v->lower += win->measured[i];
			v->upper += win->measured[i];
			v->basis = use->name;
			k->est += win->measured[i];
		} else {
			v->throughput += m;
			v->lower += e->lo[i] * ms;
			v->upper += e->hi[i] * ms;
			v->basis = "model";
			k->est += m;
		}
	}
}

/*
 * A core's estimate is the sum of its threads' (each over its own window);
 * its bounds and capacity are the core's own, over the mean.  A measured
 * basis is the value, and the bounds close on it; its error is the model's
 * against it.
 */
static void core_bounds(const struct sampler *s, struct smt_core_values *cv,
			const struct core_window *win, const struct smt_core_estimate *e,
			struct core_count *k)
{
	double core_ms = win->mean_ticks * s->ms_per_tick;

	k->lo = e->core_lo * core_ms;
	k->hi = e->core_hi * core_ms;
	k->cap = e->capacity * core_ms;
	if (win->basis) {
		k->lo = k->hi = k->est;
		if (win->basis->whole_core)
			k->cap = core_ms;	/* (the basis shares out the whole core) */
		/* in cores over the window: where /proc/stat missed ticks (a
		 * guest's vCPU kept waiting), what either figure covers says the
		 * window was at least that long */
		double span = core_ms;

		if (k->est > span)
			span = k->est;
		if (k->model > span)
			span = k->model;
		cv->model_error = (k->model - k->est) / span;
	} else if (e->core_est > 0) {
		/* The threads' windows may differ by a tick or more: the bounds
		 * are the core's, as fractions of its estimate, so that they hold
		 * the value counted over those windows. */
		k->lo = k->est * e->core_lo / e->core_est;
		k->hi = k->est * e->core_hi / e->core_est;
	}
}

/* The window's count into the core's values and the machine's totals; what
 * it counted past the core's capacity is carried against its next. */
static void add_core_count(struct sampler *s, struct smt_core_values *cv,
			   const struct core_window *win, const struct core_count *k)
{
	double left = k->cap - k->est - cv->over;

	cv->over = left < 0 ? -left : 0;
	left = left > 0 ? left : 0;
	cv->step_threads = 0;
	cv->have_error = win->basis != NULL;
	cv->basis = win->basis ? win->basis->name : "model";
	cv->model_cpu += k->model;
	cv->throughput += k->est;
	cv->lower += k->lo;
	cv->upper += k->hi;
	cv->capacity += k->cap;
	cv->capacity_left += left;
	cv->level = win->level;
	cv->busy_threads += win->busy_ticks * s->ms_per_tick;
	cv->have_level = true;
	cv->counted = true;
	s->all.throughput += k->est;
	s->all.lower += k->lo;
	s->all.upper += k->hi;
	s->all.capacity += k->cap;
	s->all.capacity_left += left;
}

void sampler_count_core(struct sampler *s, const struct topo_core *c)
{
	struct smt_core_values *cv = &s->core[c->first_cpu];
	struct core_window win;
	struct smt_core_estimate e;
	struct core_count k;

	if (!threads_window(s, c, &win))
		return;
	/* The basis takes the window; then each derives what it will from it,
	 * and the next one begins. */
	win.basis = measure_core(s, c, &win);
	tell_bases_counted(s, c, &win);
	rebase_core(s, c);
	busy_fractions(&win, c->nthreads);
	smt_estimate_core(cv->table, win.frac, c->nthreads, &e);
	if (cv->step_threads)
		step_bounds(s, cv, win.frac, c->nthreads, &e);
	credit_threads(s, c, &win, &e, &k);
	core_bounds(s, cv, &win, &e, &k);
	add_core_count(s, cv, &win, &k);
}

/*
 * A CPU gone offline since the last pass: /proc/stat has no line for it any
 * more, but a measured basis may have read its clock as it went.  Its last
 * stretch then counts for it, its old core and the machine, and is carried
 * as used against that core's next window (a core that lives on).
 */
void sampler_count_departed(struct sampler *s)
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

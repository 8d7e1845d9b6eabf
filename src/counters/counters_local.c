/*
 * The local-read backend: perf_event_open's groups (counters_perf.c), read
 * on their own CPU.  Reading a group from the pass's CPU interrupts the CPU
 * that holds its counters, a group each; here local_read.bpf.c reads every
 * group of a CPU on that CPU, from a timer there at the pass's period, and
 * the pass copies all CPUs' readings with one lookup (begin_pass).
 *
 * A reading is as old as its CPU's last timer, up to a period, and a
 * client that divides by the time between its own fetches would see that
 * as aliasing.  So each group's value is carried to the pass: its last two
 * stamped readings give the rate, the rate the value at the pass's time,
 * never less than what was served before (a count never goes back; a
 * rate that fell is caught up at the next reading).  A group whose CPU has
 * no timer, or whose counters the program cannot read, is read directly.
 *
 * So is a group whose CPU's timer is overdue.  Some kernels run no sample
 * of a CPU's cpu-clock while the CPU idles (its timer expires, the program
 * does not run), so an idle CPU has no readings; carried on, its last rate
 * would count what was never done.  Read directly, an idle CPU costs an
 * interrupt a group, as perf's reads do; a busy one still costs none.
 */
#include "counters.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "local_read_abi.h"
#include "local_read.skel.h"
#include "monoclock.h"

struct stamped {
	uint64_t ns;
	struct ctr_reading r;
};

struct local_group {
	int cpu, slot, n;	/* n 0: not open */
	bool direct;		/* read by the pass, from its CPU */
	bool have_prev;
	uint64_t opened_ns;
	struct stamped prev, last;	/* the program's last two readings */
	struct ctr_reading served;
};

struct local_backend {
	struct ctr_backend base;	/* first: the interface is a cast away */
	struct ctr_backend *perf;	/* opens, closes, and reads what is read directly */
	int max, ncpus, possible;
	uint64_t period_ns;
	struct local_read_bpf *skel;
	struct local_group *group;	/* [max], by the perf backend's handle */
	unsigned char *used;		/* [ncpus][LR_SLOTS] */
	int *open_on;			/* [ncpus]: groups open, the timer runs while > 0 */
	int *timer_fd;			/* [ncpus] */
	struct bpf_link **timer;	/* [ncpus] */
	struct lr_cpu *copy, *latest;	/* [possible]: the lookup's, the last whole one */
	uint64_t pass_ns;
	int ndirect;
};

static int open_timer(struct local_backend *lb, int cpu)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof attr);
	attr.size = sizeof attr;
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = lb->period_ns;
	attr.disabled = 1;
	if ((fd = (int)syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC)) < 0)
		return -errno;
	lb->timer[cpu] = bpf_program__attach_perf_event(lb->skel->progs.read_local, fd);
	if (lb->timer[cpu] == NULL) {
		int sts = -errno;

		close(fd);
		return sts ? sts : -EINVAL;
	}
	lb->timer_fd[cpu] = fd;
	return 0;
}

static void close_timer(struct local_backend *lb, int cpu)
{
	if (lb->timer[cpu] == NULL)
		return;
	bpf_link__destroy(lb->timer[cpu]);
	close(lb->timer_fd[cpu]);
	lb->timer[cpu] = NULL;
	lb->timer_fd[cpu] = -1;
}

/* n free slots in a row on cpu: the first, or -1. */
static int find_slots(const struct local_backend *lb, int cpu, int n)
{
	const unsigned char *used = &lb->used[(size_t)cpu * LR_SLOTS];

	for (int s = 0; s + n <= LR_SLOTS; s++) {
		int k = 0;

		while (k < n && !used[s + k])
			k++;
		if (k == n)
			return s;
	}
	return -1;
}

/* The group's members into the program's array; false if it cannot be. */
static bool place(struct local_backend *lb, struct local_group *g, int handle)
{
	int fd[CTR_GROUP_MAX], events = bpf_map__fd(lb->skel->maps.events);

	if ((g->slot = find_slots(lb, g->cpu, g->n)) < 0 || ctr_perf_group_fds(lb->perf, handle, fd) != g->n)
		return false;
	for (int i = 0; i < g->n; i++) {
		__u32 key = (__u32)(g->cpu * LR_SLOTS + g->slot + i);

		if (bpf_map_update_elem(events, &key, &fd[i], BPF_ANY) != 0) {
			while (i-- > 0) {
				key = (__u32)(g->cpu * LR_SLOTS + g->slot + i);
				bpf_map_delete_elem(events, &key);
			}
			return false;
		}
	}
	memset(&lb->used[(size_t)g->cpu * LR_SLOTS + g->slot], 1, (size_t)g->n);
	if ((__u32)(g->slot + g->n) > lb->skel->bss->nslots)
		lb->skel->bss->nslots = (__u32)(g->slot + g->n);
	return true;
}

static void unplace(struct local_backend *lb, struct local_group *g)
{
	int events = bpf_map__fd(lb->skel->maps.events);

	for (int i = 0; i < g->n; i++) {
		__u32 key = (__u32)(g->cpu * LR_SLOTS + g->slot + i);

		bpf_map_delete_elem(events, &key);
	}
	memset(&lb->used[(size_t)g->cpu * LR_SLOTS + g->slot], 0, (size_t)g->n);
}

static int local_open_group(struct ctr_backend *b, int cpu, const struct ctr_event *ev, int n)
{
	struct local_backend *lb = (struct local_backend *)b;
	struct local_group *g;
	int h = lb->perf->ops->open_group(lb->perf, cpu, ev, n);

	if (h < 0) {
		snprintf(b->why, sizeof b->why, "%s", lb->perf->why);
		return h;
	}
	if (h >= lb->max || cpu < 0 || cpu >= lb->ncpus) {
		lb->perf->ops->close_group(lb->perf, h);
		snprintf(b->why, sizeof b->why, "more than %d counter groups", lb->max);
		return -ENOSPC;
	}
	g = &lb->group[h];
	memset(g, 0, sizeof *g);
	g->cpu = cpu;
	g->n = n;
	g->direct = true;
	if ((lb->timer[cpu] != NULL || open_timer(lb, cpu) == 0) && place(lb, g, h)) {
		g->direct = false;
		lb->open_on[cpu]++;
	} else {
		if (lb->open_on[cpu] == 0)
			close_timer(lb, cpu);
		lb->ndirect++;
	}
	g->opened_ns = mono_ns();
	return h;
}

static void local_close_group(struct ctr_backend *b, int handle)
{
	struct local_backend *lb = (struct local_backend *)b;
	struct local_group *g;

	if (handle < 0 || handle >= lb->max || lb->group[handle].n == 0)
		return;
	g = &lb->group[handle];
	if (g->direct)
		lb->ndirect--;
	else {
		unplace(lb, g);
		if (--lb->open_on[g->cpu] == 0)
			close_timer(lb, g->cpu);
	}
	g->n = 0;
	lb->perf->ops->close_group(lb->perf, handle);
}

/* Every CPU's readings in one copy; a CPU's kept where it is whole. */
static void local_begin_pass(struct ctr_backend *b)
{
	struct local_backend *lb = (struct local_backend *)b;
	__u32 zero = 0;

	int sts = bpf_map_lookup_elem(bpf_map__fd(lb->skel->maps.readings), &zero, lb->copy);

	/* (after the copy: no reading it holds is younger than the pass) */
	lb->pass_ns = mono_ns();
	if (sts != 0)
		return;
	for (int cpu = 0; cpu < lb->possible && cpu < lb->ncpus; cpu++)
		if (lb->copy[cpu].begun == lb->copy[cpu].done && lb->copy[cpu].stamp_ns > lb->latest[cpu].stamp_ns)
			lb->latest[cpu] = lb->copy[cpu];
}

/* The group's value at the pass: the last reading carried on at the rate
 * of the last two, never below what was served.  (The last is at most a
 * period and a quarter old: past that the pass reads the group itself.
 * The two may be further apart, the CPU idle between: their mean rate.) */
static void carry(const struct local_backend *lb, struct local_group *g, struct ctr_reading *r)
{
	uint64_t ahead = lb->pass_ns > g->last.ns ? lb->pass_ns - g->last.ns : 0;
	uint64_t span = g->last.ns - g->prev.ns;
	double f;

	*r = g->last.r;
	if (g->have_prev && span > 0) {
		f = (double)ahead / (double)span;
		r->enabled += (uint64_t)((double)(g->last.r.enabled - g->prev.r.enabled) * f);
		r->running += (uint64_t)((double)(g->last.r.running - g->prev.r.running) * f);
		for (int k = 0; k < g->n; k++)
			if (g->last.r.value[k] >= g->prev.r.value[k])
				r->value[k] += (uint64_t)((double)(g->last.r.value[k] - g->prev.r.value[k]) * f);
	}
	if (r->enabled < g->served.enabled)
		r->enabled = g->served.enabled;
	if (r->running < g->served.running)
		r->running = g->served.running;
	for (int k = 0; k < g->n; k++)
		if (r->value[k] < g->served.value[k])
			r->value[k] = g->served.value[k];
	g->served = *r;
}

/* The group read by the pass, as perf would: where it is never read by
 * the program (direct), and where the program's reading is not recent
 * enough to carry (there is no rate yet, or the CPU's timer is overdue).
 * The carry's rate stays the timer's: such a read is as of when the
 * interrupt was taken, which may be long after it was sent (a virtual CPU
 * its host has stopped), and no stamp here could say when. */
static int read_directly(struct local_backend *lb, struct local_group *g, int handle, struct ctr_reading *r)
{
	int sts = lb->perf->ops->read_group(lb->perf, handle, r);

	if (sts < 0) {
		snprintf(lb->base.why, sizeof lb->base.why, "%s", lb->perf->why);
		return sts;
	}
	for (int k = 0; k < g->n; k++)
		if (r->value[k] < g->served.value[k])
			r->value[k] = g->served.value[k];
	if (r->enabled < g->served.enabled)
		r->enabled = g->served.enabled;
	if (r->running < g->served.running)
		r->running = g->served.running;
	g->served = *r;
	return 0;
}

/* The CPU's timer has not read it for a period and a quarter; or the
 * carry would reach more than twice as far past the last reading as the
 * last two lie apart (the period just made longer), where a stamp's
 * error in the rate grows by that reach. */
static bool overdue(const struct local_backend *lb, const struct local_group *g)
{
	uint64_t stamp = lb->latest[g->cpu].stamp_ns;
	uint64_t span = g->last.ns - g->prev.ns, ahead = lb->pass_ns > g->last.ns ? lb->pass_ns - g->last.ns : 0;

	return (lb->pass_ns > stamp && lb->pass_ns - stamp > lb->period_ns + lb->period_ns / 4) || ahead > 2 * span;
}

static int local_read_group(struct ctr_backend *b, int handle, struct ctr_reading *r)
{
	struct local_backend *lb = (struct local_backend *)b;
	struct local_group *g = &lb->group[handle];
	const struct lr_cpu *c = &lb->latest[g->cpu];
	uint64_t mask = ((1ULL << g->n) - 1) << g->slot;

	if (g->direct)
		return read_directly(lb, g, handle, r);
	if (c->stamp_ns > g->last.ns && c->stamp_ns > g->opened_ns) {
		if (c->failed & mask) {
			/* from now on read from the pass's CPU, as perf would */
			unplace(lb, g);
			if (--lb->open_on[g->cpu] == 0)
				close_timer(lb, g->cpu);
			g->direct = true;
			lb->ndirect++;
			return local_read_group(b, handle, r);
		}
		g->prev = g->last;
		g->have_prev = g->last.ns != 0;	/* (the first timer reading has none) */
		g->last.ns = c->stamp_ns;
		g->last.r.enabled = c->slot[g->slot].enabled;
		g->last.r.running = c->slot[g->slot].running;
		for (int k = 0; k < g->n; k++)
			g->last.r.value[k] = c->slot[g->slot + k].counter;
	}
	if (!g->have_prev || overdue(lb, g))
		return read_directly(lb, g, handle, r);
	carry(lb, g, r);
	return CTR_READ_ON_CPU;
}

static void local_destroy(struct ctr_backend *b)
{
	struct local_backend *lb = (struct local_backend *)b;

	for (int cpu = 0; lb->timer && cpu < lb->ncpus; cpu++)
		close_timer(lb, cpu);
	local_read_bpf__destroy(lb->skel);
	if (lb->perf)
		lb->perf->ops->destroy(lb->perf);
	free(lb->group);
	free(lb->used);
	free(lb->open_on);
	free(lb->timer_fd);
	free(lb->timer);
	free(lb->copy);
	free(lb->latest);
	free(lb);
}

static const struct ctr_backend_ops local_ops = {
	local_open_group, local_read_group, local_close_group, local_begin_pass, local_destroy
};

static struct ctr_backend *refuse(struct local_backend *lb, char *why, size_t whysize, const char *what, int err)
{
	snprintf(why, whysize, "%s: %s", what, strerror(err < 0 ? -err : err));
	local_destroy(&lb->base);
	return NULL;
}

struct ctr_backend *ctr_local_new(int max_groups, int ncpus, unsigned period_ms, char *why, size_t whysize)
{
	struct local_backend *lb = calloc(1, sizeof *lb);
	int err;

	if (lb == NULL) {
		snprintf(why, whysize, "out of memory");
		return NULL;
	}
	lb->base.ops = &local_ops;
	snprintf(lb->base.name, sizeof lb->base.name, "local");
	lb->max = max_groups > 0 ? max_groups : 1;
	lb->ncpus = ncpus;
	lb->period_ns = (uint64_t)(period_ms ? period_ms : 1000) * 1000000u;
	if ((lb->possible = libbpf_num_possible_cpus()) <= 0)
		return refuse(lb, why, whysize, "the possible CPUs", lb->possible);
	lb->perf = ctr_perf_new(lb->max);
	lb->group = calloc((size_t)lb->max, sizeof *lb->group);
	lb->used = calloc((size_t)ncpus * LR_SLOTS, 1);
	lb->open_on = calloc((size_t)ncpus, sizeof *lb->open_on);
	lb->timer_fd = malloc((size_t)ncpus * sizeof *lb->timer_fd);
	lb->timer = calloc((size_t)ncpus, sizeof *lb->timer);
	lb->copy = calloc((size_t)lb->possible, sizeof *lb->copy);
	lb->latest = calloc((size_t)lb->possible, sizeof *lb->latest);
	if (!lb->perf || !lb->group || !lb->used || !lb->open_on || !lb->timer_fd || !lb->timer || !lb->copy ||
	    !lb->latest)
		return refuse(lb, why, whysize, "out of memory", ENOMEM);
	for (int cpu = 0; cpu < ncpus; cpu++)
		lb->timer_fd[cpu] = -1;
	if ((lb->skel = local_read_bpf__open()) == NULL)
		return refuse(lb, why, whysize, "opening the BPF program", errno);
	if ((err = bpf_map__set_max_entries(lb->skel->maps.events, (__u32)lb->possible * LR_SLOTS)) != 0)
		return refuse(lb, why, whysize, "sizing the BPF program's maps", err);
	if ((err = local_read_bpf__load(lb->skel)) != 0)
		return refuse(lb, why, whysize, "loading the BPF program", err);
	return &lb->base;
}

int ctr_local_direct(const struct ctr_backend *b)
{
	return b->ops == &local_ops ? ((const struct local_backend *)b)->ndirect : -1;
}

/* PERF_EVENT_IOC_PERIOD restarts a running timer at the new period. */
int ctr_local_set_period(struct ctr_backend *b, unsigned period_ms)
{
	struct local_backend *lb = (struct local_backend *)b;
	uint64_t ns = (uint64_t)(period_ms ? period_ms : 1000) * 1000000u;
	int sts = 0;

	if (b->ops != &local_ops)
		return 0;
	for (int cpu = 0; cpu < lb->ncpus; cpu++)
		if (lb->timer[cpu] != NULL && ioctl(lb->timer_fd[cpu], PERF_EVENT_IOC_PERIOD, &ns) != 0 && sts == 0)
			sts = -errno;
	lb->period_ns = ns;	/* (timers opened from now on; the carry copes with either) */
	return sts;
}

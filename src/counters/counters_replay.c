/*
 * The replay backend: a trace's readings (replay_trace.h, which gives the
 * format) served one step per sampling pass, so that everything above the
 * backend runs exactly as it would on the hardware.
 */
#include "counters.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay_trace.h"

struct replay_backend {
	struct ctr_backend base;	/* first: the interface is a cast away */
	struct replay_trace *t;
	int *handle;			/* [max]: the group each open handle serves, -1 free */
	int max;
	int passes;			/* begin_pass calls: the trace steps when the first backend does */
	const struct ctr_reading *row;	/* the step it serves: [ngroups], as of its begin_pass */
};

static int replay_open_group(struct ctr_backend *b, int cpu, const struct ctr_event *ev, int n)
{
	struct replay_backend *rb = (struct replay_backend *)b;
	struct replay_trace *t = rb->t;
	int h = 0;

	for (int i = 0; i < t->ngroups; i++) {
		struct replay_group *g = &t->group[i];
		int same = g->cpu == cpu && g->n == n && !g->opened;

		for (int k = 0; same && k < n; k++)
			same = ev[k].type == g->type[k] && ev[k].config[0] == g->config[k];
		if (!same)
			continue;
		if (g->error && (g->fail_times == 0 || g->failed++ < g->fail_times)) {
			snprintf(b->why, sizeof b->why, "replayed perf_event_open(cpu %d): %s", cpu,
				 strerror(g->error));
			return -g->error;
		}
		while (h < rb->max && rb->handle[h] >= 0)
			h++;
		if (h == rb->max)
			return -ENOSPC;
		rb->handle[h] = i;
		g->opened = 1;
		return h;
	}
	snprintf(b->why, sizeof b->why, "the trace has no group of %d events (first config 0x%llx) "
		 "on cpu %d", n, (unsigned long long)ev[0].config[0], cpu);
	return -ENOENT;
}

static int replay_read_group(struct ctr_backend *b, int handle, struct ctr_reading *r)
{
	struct replay_backend *rb = (struct replay_backend *)b;

	*r = rb->row[rb->handle[handle]];
	return 0;
}

static void replay_close_group(struct ctr_backend *b, int handle)
{
	struct replay_backend *rb = (struct replay_backend *)b;

	if (handle >= 0 && handle < rb->max && rb->handle[handle] >= 0) {
		rb->t->group[rb->handle[handle]].opened = 0;
		rb->handle[handle] = -1;
	}
}

/* The first backend to begin a pass moves the shared trace on a step; the
 * others, beginning the same pass, find it there already. */
static void replay_begin_pass(struct ctr_backend *b)
{
	struct replay_backend *rb = (struct replay_backend *)b;

	if (++rb->passes > rb->t->step && rb->t->step < rb->t->nsteps)
		rb->t->step++;
	rb->row = replay_trace_row(rb->t);
}

static void replay_destroy(struct ctr_backend *b)
{
	struct replay_backend *rb = (struct replay_backend *)b;

	replay_trace_release(rb->t);
	free(rb->handle);
	free(rb);
}

static const struct ctr_backend_ops replay_ops = {
	replay_open_group, replay_read_group, replay_close_group, replay_begin_pass, replay_destroy
};

int ctr_replay_ended(const struct ctr_backend *b)
{
	const struct replay_backend *rb = (const struct replay_backend *)b;

	return b->ops == &replay_ops && rb->t->step >= rb->t->nsteps;
}

struct ctr_backend *ctr_replay_new(const char *path, int max_groups, char *why, size_t whysize)
{
	struct replay_backend *rb = calloc(1, sizeof *rb);

	if (rb == NULL || (rb->handle = malloc((size_t)(max_groups > 0 ? max_groups : 1) *
					       sizeof *rb->handle)) == NULL) {
		free(rb);
		snprintf(why, whysize, "out of memory");
		return NULL;
	}
	if ((rb->t = replay_trace_get(path, why, whysize)) == NULL) {
		free(rb->handle);
		free(rb);
		return NULL;
	}
	rb->base.ops = &replay_ops;
	snprintf(rb->base.name, sizeof rb->base.name, "replay");
	rb->row = replay_trace_row(rb->t);
	rb->max = max_groups;
	for (int h = 0; h < max_groups; h++)
		rb->handle[h] = -1;
	return &rb->base;
}

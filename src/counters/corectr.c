#include "corectr.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mux.h"

/* A group of cpu's read into r, counted by how the backend took it. */
static int read_slot(struct corectr *c, int cpu, int handle, struct ctr_reading *r, struct ctr_backend *b)
{
	int sts = b->ops->read_group(b, handle, r);

	if (sts == CTR_READ_ON_CPU)
		c->reads_on_cpu[cpu]++;
	else if (sts == 0)
		c->reads_interrupting[cpu]++;
	return sts < 0 ? sts : 0;
}

static int open_slot(struct corectr *c, int cpu, int g, struct ctr_backend *b)
{
	struct corectr_slot *s = &c->slot[corectr_cell(c, cpu, g)];
	int h = b->ops->open_group(b, cpu, c->spec[g].ev, c->spec[g].n);

	if (h < 0) {
		if (c->open_error == 0) {
			c->open_error = h;
			c->open_cpu = cpu;
		}
		c->error = h;
		snprintf(c->why, sizeof c->why, "%s events on cpu%d: %s", c->spec[g].name, cpu,
			 b->why[0] ? b->why : strerror(-h));
		return h;
	}
	s->handle = h;
	/* the baseline: what the group reads as it opens */
	s->have_last = read_slot(c, cpu, h, &s->last, b) == 0;
	c->nopen++;
	return 0;
}

static void close_slot(struct corectr *c, int cpu, int g, struct ctr_backend *b)
{
	int cell = corectr_cell(c, cpu, g);
	struct corectr_slot *s = &c->slot[cell];

	if (s->handle < 0)
		return;
	b->ops->close_group(b, s->handle);
	s->handle = -1;
	s->have_last = false;
	c->fresh[cell] = 0;
	c->duty[cell] = 0;
	c->nopen--;
}

int corectr_open(struct corectr *c, const struct corectr_group_spec *spec, int ngroups, int ncpus,
		 const unsigned char *online, struct ctr_backend *b)
{
	size_t cells = (size_t)ncpus * (size_t)ngroups;
	int first = 0;

	memset(c, 0, sizeof *c);
	if (ngroups <= 0 || ngroups > CORECTR_MAX_GROUPS || ncpus <= 0)
		return -EINVAL;
	c->ncpus = ncpus;
	c->ngroups = ngroups;
	memcpy(c->spec, spec, (size_t)ngroups * sizeof *spec);
	c->slot = calloc(cells, sizeof *c->slot);
	c->total = calloc(cells * CTR_GROUP_MAX, sizeof *c->total);
	c->window = calloc(cells * CTR_GROUP_MAX, sizeof *c->window);
	c->window_ns = calloc(cells, sizeof *c->window_ns);
	c->duty = calloc(cells, sizeof *c->duty);
	c->fresh = calloc(cells, 1);
	c->have = calloc(cells, 1);
	c->reads_interrupting = calloc((size_t)ncpus, sizeof *c->reads_interrupting);
	c->reads_on_cpu = calloc((size_t)ncpus, sizeof *c->reads_on_cpu);
	if (c->slot)
		for (size_t i = 0; i < cells; i++)
			c->slot[i].handle = -1;
	if (!c->slot || !c->total || !c->window || !c->window_ns || !c->duty || !c->fresh || !c->have ||
	    !c->reads_interrupting || !c->reads_on_cpu) {
		corectr_close(c, b);
		return -ENOMEM;
	}
	for (int cpu = 0; cpu < ncpus; cpu++)
		for (int g = 0; online[cpu] && g < ngroups; g++) {
			int sts = open_slot(c, cpu, g, b);
			if (sts < 0 && first == 0)
				first = sts;
		}
	if (c->nopen == 0)
		return first ? first : -ENOENT;
	return 0;
}

void corectr_sync(struct corectr *c, const unsigned char *online, struct ctr_backend *b)
{
	c->open_error = 0;
	for (int cpu = 0; cpu < c->ncpus; cpu++)
		for (int g = 0; g < c->ngroups; g++) {
			bool open = c->slot[corectr_cell(c, cpu, g)].handle >= 0;
			if (open && !online[cpu])
				close_slot(c, cpu, g, b);
			else if (!open && online[cpu])
				open_slot(c, cpu, g, b);
		}
}

/* One group's reading; with no baseline yet (the read at opening failed)
 * it becomes the baseline. */
static int count(struct corectr *c, int cell, const struct ctr_reading *now)
{
	struct corectr_slot *s = &c->slot[cell];
	double est[CTR_GROUP_MAX], duty;
	int n = c->spec[cell % c->ngroups].n;

	if (!s->have_last) {
		s->last = *now;
		s->have_last = true;
		return 0;
	}
	switch (mux_estimate(&s->last, now, n, est, &duty)) {
	case MUX_COUNTED:
		break;
	case MUX_NOT_RUN:	/* keep the baseline: the next window scales over both */
		c->duty[cell] = 0;
		c->fresh[cell] = 0;
		return 0;
	case MUX_RESET:
		s->last = *now;
		c->fresh[cell] = 0;
		return 0;
	case MUX_NO_TIME:	/* no time enabled since: nothing counted this read */
		if (c->fresh[cell])	/* (a stood-still group: no store each read) */
			c->fresh[cell] = 0;
		return 0;
	}
	for (int k = 0; k < n; k++) {
		c->total[cell * CTR_GROUP_MAX + k] += est[k];
		c->window[cell * CTR_GROUP_MAX + k] = est[k];
	}
	c->window_ns[cell] = (double)(now->enabled - s->last.enabled);
	c->duty[cell] = duty;
	c->fresh[cell] = 1;
	c->have[cell] = 1;
	s->last = *now;
	return 1;
}

int corectr_read(struct corectr *c, struct ctr_backend *b)
{
	int counted = 0;

	c->read_error = 0;
	for (int cell = 0; cell < c->ncpus * c->ngroups; cell++) {
		struct ctr_reading now;
		int sts;

		if (c->slot[cell].handle < 0)
			continue;
		if ((sts = read_slot(c, cell / c->ngroups, c->slot[cell].handle, &now, b)) < 0) {
			if (c->read_error == 0) {
				c->read_error = sts;
				c->read_cpu = cell / c->ngroups;
			}
			c->error = sts;
			snprintf(c->why, sizeof c->why, "reading %s events on cpu%d: %s",
				 c->spec[cell % c->ngroups].name, cell / c->ngroups,
				 b->why[0] ? b->why : strerror(-sts));
			c->fresh[cell] = 0;
			continue;
		}
		counted += count(c, cell, &now);
	}
	return counted;
}

void corectr_close(struct corectr *c, struct ctr_backend *b)
{
	if (c->slot && c->fresh && c->duty)
		for (int cpu = 0; cpu < c->ncpus; cpu++)
			for (int g = 0; g < c->ngroups; g++)
				close_slot(c, cpu, g, b);
	free(c->slot);
	free(c->total);
	free(c->window);
	free(c->window_ns);
	free(c->duty);
	free(c->fresh);
	free(c->have);
	free(c->reads_interrupting);
	free(c->reads_on_cpu);
	c->slot = NULL;
	c->total = c->window = c->window_ns = c->duty = NULL;
	c->fresh = c->have = NULL;
	c->reads_interrupting = c->reads_on_cpu = NULL;
}

/*
 * The replay backend: counter readings recorded (or written by hand) in a
 * text file, served one step per sampling pass, so that everything above
 * the backend runs exactly as it would on the hardware.
 *
 * Format, one item per line, "#" to the end of a line is a comment:
 *
 *   group ID CPU TYPE CONFIG[,CONFIG...] [error ERRNO-NAME [TIMES]]
 *       a group the trace covers: opening events (TYPE, CONFIGs in this
 *       order) on CPU gets it, or fails with ERRNO-NAME (EBUSY, ENOSPC,
 *       EACCES, ENOENT, EINVAL), every time or the first TIMES times;
 *       ID is any word
 *   step
 *       the readings that follow belong to the next sampling pass
 *   ID ENABLED RUNNING COUNT[ COUNT...]
 *       a group's reading in this step: time enabled and running (ns) and
 *       the raw counts, one per member, as the hardware gives them (48-bit
 *       counters wrap)
 *
 * The first step is what opening the groups reads; each sampling pass then
 * moves one step on.  A group with no reading in a step keeps its last one
 * (its counters stood still).  After the last step every group stands still and
 * ctr_replay_ended() is true.  Numbers are decimal or 0x-hex.
 */
#include "counters.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPLAY_ID_MAX 32

struct replay_group {
	char id[REPLAY_ID_MAX];
	int cpu, n, error;
	unsigned fail_times, failed;	/* error the first fail_times opens, 0: always */
	uint32_t type;
	uint64_t config[CTR_GROUP_MAX];
	struct ctr_reading *step;	/* [nsteps]; a step without a reading copies the last */
	int opened;
};

struct replay_backend {
	struct ctr_backend base;	/* first: the interface is a cast away */
	struct replay_group *group;
	int ngroups, nsteps;
	int step;			/* served now: 0 when opened, +1 every pass */
	int *handle;			/* [max]: the group each open handle serves, -1 free */
	int max;
};

static const struct { const char *name; int code; } errnames[] = {
	{ "EBUSY", EBUSY }, { "ENOSPC", ENOSPC }, { "EACCES", EACCES }, { "EPERM", EPERM },
	{ "ENOENT", ENOENT }, { "EINVAL", EINVAL }, { "EOPNOTSUPP", EOPNOTSUPP },
};

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return end != s && *end == '\0' && errno == 0 && *s != '-' ? 0 : -1;
}

static struct replay_group *find(struct replay_backend *rb, const char *id)
{
	for (int i = 0; i < rb->ngroups; i++)
		if (strcmp(rb->group[i].id, id) == 0)
			return &rb->group[i];
	return NULL;
}

/* "group ID CPU TYPE CONFIGS [error NAME]" */
static int parse_group(struct replay_backend *rb, char **w, int nw, char *why, size_t whysize)
{
	struct replay_group *g, *grown;
	uint64_t cpu, type;
	char *save, *tok;

	if (nw != 5 && !((nw == 7 || nw == 8) && strcmp(w[5], "error") == 0)) {
		snprintf(why, whysize, "expected \"group ID CPU TYPE CONFIG[,CONFIG...] "
			 "[error ERRNO [TIMES]]\"");
		return -1;
	}
	if (strlen(w[1]) >= REPLAY_ID_MAX || find(rb, w[1]) || rb->nsteps > 0) {
		snprintf(why, whysize, "group %s: duplicate, too long, or after the first step", w[1]);
		return -1;
	}
	if (parse_u64(w[2], &cpu) < 0 || cpu > 1 << 20 || parse_u64(w[3], &type) < 0 ||
	    type > UINT32_MAX) {
		snprintf(why, whysize, "group %s: CPU and TYPE must be numbers", w[1]);
		return -1;
	}
	if ((grown = realloc(rb->group, (size_t)(rb->ngroups + 1) * sizeof *grown)) == NULL)
		return -1;
	rb->group = grown;
	g = &rb->group[rb->ngroups];
	memset(g, 0, sizeof *g);
	snprintf(g->id, sizeof g->id, "%s", w[1]);
	g->cpu = (int)cpu;
	g->type = (uint32_t)type;
	for (tok = strtok_r(w[4], ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (g->n == CTR_GROUP_MAX || parse_u64(tok, &g->config[g->n]) < 0) {
			snprintf(why, whysize, "group %s: bad CONFIG list", w[1]);
			return -1;
		}
		g->n++;
	}
	if (nw >= 7) {
		uint64_t times = 0;

		if (nw == 8 && (parse_u64(w[7], &times) < 0 || times == 0 || times > 1000000)) {
			snprintf(why, whysize, "group %s: TIMES must be a positive count", w[1]);
			return -1;
		}
		g->fail_times = (unsigned)times;
		for (size_t i = 0; i < sizeof errnames / sizeof errnames[0]; i++)
			if (strcmp(w[6], errnames[i].name) == 0)
				g->error = errnames[i].code;
		if (g->error == 0) {
			snprintf(why, whysize, "group %s: unknown error %s", w[1], w[6]);
			return -1;
		}
	}
	rb->ngroups++;
	return 0;
}

static int add_step(struct replay_backend *rb)
{
	for (int i = 0; i < rb->ngroups; i++) {
		struct replay_group *g = &rb->group[i];
		struct ctr_reading *grown = realloc(g->step, (size_t)(rb->nsteps + 1) * sizeof *grown);

		if (grown == NULL)
			return -1;
		g->step = grown;
		if (rb->nsteps > 0)
			g->step[rb->nsteps] = g->step[rb->nsteps - 1];
		else
			memset(&g->step[0], 0, sizeof g->step[0]);
	}
	rb->nsteps++;
	return 0;
}

/* "ID ENABLED RUNNING COUNT..." */
static int parse_reading(struct replay_backend *rb, char **w, int nw, char *why, size_t whysize)
{
	struct replay_group *g = find(rb, w[0]);
	struct ctr_reading *r;

	if (g == NULL || rb->nsteps == 0) {
		snprintf(why, whysize, "\"%s\" is not a declared group, or comes before \"step\"", w[0]);
		return -1;
	}
	if (nw != 3 + g->n) {
		snprintf(why, whysize, "group %s: expected ENABLED RUNNING and %d counts", g->id, g->n);
		return -1;
	}
	r = &g->step[rb->nsteps - 1];
	if (parse_u64(w[1], &r->enabled) < 0 || parse_u64(w[2], &r->running) < 0) {
		snprintf(why, whysize, "group %s: ENABLED and RUNNING must be numbers", g->id);
		return -1;
	}
	for (int i = 0; i < g->n; i++)
		if (parse_u64(w[3 + i], &r->value[i]) < 0) {
			snprintf(why, whysize, "group %s: count \"%s\" is not a number", g->id, w[3 + i]);
			return -1;
		}
	return 0;
}

static int parse_file(struct replay_backend *rb, FILE *f, const char *path, char *why,
		      size_t whysize)
{
	char line[4096], *w[3 + CTR_GROUP_MAX + 1], detail[200];
	int lineno = 0;

	while (fgets(line, sizeof line, f) != NULL) {
		char *hash = strchr(line, '#'), *save;
		int nw = 0, sts;

		lineno++;
		if (hash)
			*hash = '\0';
		for (char *t = strtok_r(line, " \t\r\n", &save); t && nw < (int)(sizeof w / sizeof w[0]);
		     t = strtok_r(NULL, " \t\r\n", &save))
			w[nw++] = t;
		if (nw == 0)
			continue;
		detail[0] = '\0';
		if (strcmp(w[0], "group") == 0)
			sts = parse_group(rb, w, nw, detail, sizeof detail);
		else if (strcmp(w[0], "step") == 0)
			sts = nw == 1 ? add_step(rb) : -1;
		else
			sts = parse_reading(rb, w, nw, detail, sizeof detail);
		if (sts < 0) {
			snprintf(why, whysize, "%s:%d: %s", path, lineno,
				 detail[0] ? detail : "malformed line");
			return -1;
		}
	}
	if (rb->nsteps == 0) {
		snprintf(why, whysize, "%s: no steps", path);
		return -1;
	}
	return 0;
}

static int replay_open_group(struct ctr_backend *b, int cpu, const struct ctr_event *ev, int n)
{
	struct replay_backend *rb = (struct replay_backend *)b;
	int h = 0;

	for (int i = 0; i < rb->ngroups; i++) {
		struct replay_group *g = &rb->group[i];
		int same = g->cpu == cpu && g->n == n && !g->opened;

		for (int k = 0; same && k < n; k++)
			same = ev[k].type == g->type && ev[k].config[0] == g->config[k];
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
	int step = rb->step < rb->nsteps ? rb->step : rb->nsteps - 1;

	*r = rb->group[rb->handle[handle]].step[step];
	return 0;
}

static void replay_close_group(struct ctr_backend *b, int handle)
{
	struct replay_backend *rb = (struct replay_backend *)b;

	if (handle >= 0 && handle < rb->max && rb->handle[handle] >= 0) {
		rb->group[rb->handle[handle]].opened = 0;
		rb->handle[handle] = -1;
	}
}

static void replay_begin_pass(struct ctr_backend *b)
{
	struct replay_backend *rb = (struct replay_backend *)b;

	if (rb->step < rb->nsteps)
		rb->step++;
}

static void replay_destroy(struct ctr_backend *b)
{
	struct replay_backend *rb = (struct replay_backend *)b;

	for (int i = 0; i < rb->ngroups; i++)
		free(rb->group[i].step);
	free(rb->group);
	free(rb->handle);
	free(rb);
}

static const struct ctr_backend_ops replay_ops = {
	replay_open_group, replay_read_group, replay_close_group, replay_begin_pass, replay_destroy
};

int ctr_replay_ended(const struct ctr_backend *b)
{
	const struct replay_backend *rb = (const struct replay_backend *)b;

	return b->ops == &replay_ops && rb->step >= rb->nsteps;
}

struct ctr_backend *ctr_replay_new(const char *path, int max_groups, char *why, size_t whysize)
{
	struct replay_backend *rb = calloc(1, sizeof *rb);
	FILE *f;

	if (rb == NULL || (rb->handle = malloc((size_t)(max_groups > 0 ? max_groups : 1) *
					       sizeof *rb->handle)) == NULL) {
		free(rb);
		snprintf(why, whysize, "out of memory");
		return NULL;
	}
	rb->base.ops = &replay_ops;
	snprintf(rb->base.name, sizeof rb->base.name, "replay");
	rb->max = max_groups;
	for (int h = 0; h < max_groups; h++)
		rb->handle[h] = -1;
	if ((f = fopen(path, "r")) == NULL) {
		snprintf(why, whysize, "%s: %s", path, strerror(errno));
		replay_destroy(&rb->base);
		return NULL;
	}
	if (parse_file(rb, f, path, why, whysize) < 0) {
		fclose(f);
		replay_destroy(&rb->base);
		return NULL;
	}
	fclose(f);
	return &rb->base;
}

/* A replay's trace parsed (the format is in replay_trace.h), and shared by
 * the backends on one file. */
#include "replay_trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parsenum.h"
#include "readfile.h"

static struct replay_trace *open_traces;

static const struct { const char *name; int code; } errnames[] = {
	{ "EBUSY", EBUSY }, { "ENOSPC", ENOSPC }, { "EACCES", EACCES }, { "EPERM", EPERM },
	{ "ENOENT", ENOENT }, { "EINVAL", EINVAL }, { "EOPNOTSUPP", EOPNOTSUPP },
};

static unsigned hash(const char *id)
{
	unsigned h = 2166136261u;

	while (*id)
		h = (h ^ (unsigned char)*id++) * 16777619u;
	return h;
}

/* The slot of id in the index: its group's, or the empty one it would take. */
static int *slot(struct replay_trace *rb, const char *id)
{
	for (unsigned i = hash(id) & (rb->nindex - 1);; i = (i + 1) & (rb->nindex - 1)) {
		int *at = &rb->index[i];

		if (*at == 0 || strcmp(rb->group[*at - 1].id, id) == 0)
			return at;
	}
}

static struct replay_group *find(struct replay_trace *rb, const char *id)
{
	int at = *slot(rb, id);

	return at ? &rb->group[at - 1] : NULL;
}

static struct ctr_reading *reading(const struct replay_trace *rb, int step, int group)
{
	return &rb->reading[(size_t)step * (size_t)rb->ngroups + (size_t)group];
}

/* "group ID CPU TYPE CONFIGS [error NAME]" */
static int parse_group(struct replay_trace *rb, char **w, int nw, char *why, size_t whysize)
{
	struct replay_group *g;
	uint64_t cpu, type;
	char *save, *tok;

	if (nw != 5 && !((nw == 7 || nw == 8) && strcmp(w[5], "error") == 0)) {
		snprintf(why, whysize, "expected \"group ID CPU TYPE CONFIG[,CONFIG...] "
			 "[error ERRNO [TIMES]]\"");
		return -1;
	}
	if ((size_t)rb->ngroups == rb->cap_groups)
		return -1;	/* cannot happen: the first pass counted every group line */
	if (strlen(w[1]) >= REPLAY_ID_MAX || find(rb, w[1]) || rb->nsteps > 0) {
		snprintf(why, whysize, "a group's ID is a duplicate or too long, or the group "
			 "comes after the first step");
		return -1;
	}
	if (pn_u64(w[2], &cpu) < 0 || cpu > 1 << 20 || pn_u64(w[3], &type) < 0 ||
	    type > UINT32_MAX) {
		snprintf(why, whysize, "a group's CPU and TYPE must be numbers");
		return -1;
	}
	g = &rb->group[rb->ngroups];
	memset(g, 0, sizeof *g);
	snprintf(g->id, sizeof g->id, "%s", w[1]);
	g->cpu = (int)cpu;
	for (tok = strtok_r(w[4], ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');
		uint64_t own = type;

		if (colon) {
			*colon = '\0';
			if (pn_u64(tok, &own) < 0 || own > UINT32_MAX)
				g->n = CTR_GROUP_MAX;	/* refused below */
			tok = colon + 1;
		}
		if (g->n == CTR_GROUP_MAX || pn_u64(tok, &g->config[g->n]) < 0) {
			snprintf(why, whysize, "a group's CONFIG list is not numbers joined by commas");
			return -1;
		}
		g->type[g->n++] = (uint32_t)own;
	}
	if (g->n == 0) {
		snprintf(why, whysize, "a group's CONFIG list is empty");
		return -1;
	}
	if (nw >= 7) {
		uint64_t times = 0;

		if (nw == 8 && (pn_u64(w[7], &times) < 0 || times == 0 || times > 1000000)) {
			snprintf(why, whysize, "a group's TIMES must be a positive count");
			return -1;
		}
		g->fail_times = (unsigned)times;
		for (size_t i = 0; i < sizeof errnames / sizeof errnames[0]; i++)
			if (strcmp(w[6], errnames[i].name) == 0)
				g->error = errnames[i].code;
		if (g->error == 0) {
			snprintf(why, whysize, "a group's ERRNO is not one of the names a replay knows");
			return -1;
		}
	}
	*slot(rb, g->id) = ++rb->ngroups;
	return 0;
}

static int add_step(struct replay_trace *rb)
{
	if ((size_t)rb->nsteps == rb->cap_steps)
		return -1;	/* cannot happen: the first pass counted every step line */
	if (rb->nsteps > 0)
		memcpy(reading(rb, rb->nsteps, 0), reading(rb, rb->nsteps - 1, 0),
		       (size_t)rb->ngroups * sizeof *rb->reading);
	rb->nsteps++;
	return 0;
}

/* "ID ENABLED RUNNING COUNT..." */
static int parse_reading(struct replay_trace *rb, char **w, int nw, char *why, size_t whysize)
{
	struct replay_group *g = find(rb, w[0]);
	struct ctr_reading *r;

	if (g == NULL || rb->nsteps == 0) {
		snprintf(why, whysize, "a reading of a group not declared, or before \"step\"");
		return -1;
	}
	if (nw != 3 + g->n) {
		snprintf(why, whysize, "a reading of a %d-counter group needs ENABLED RUNNING and "
			 "%d counts", g->n, g->n);
		return -1;
	}
	r = reading(rb, rb->nsteps - 1, (int)(g - rb->group));
	if (pn_u64(w[1], &r->enabled) < 0 || pn_u64(w[2], &r->running) < 0) {
		snprintf(why, whysize, "a reading's ENABLED and RUNNING must be numbers");
		return -1;
	}
	for (int i = 0; i < g->n; i++)
		if (pn_u64(w[3 + i], &r->value[i]) < 0) {
			snprintf(why, whysize, "a reading's count %d is not a number", i + 1);
			return -1;
		}
	return 0;
}

/* The line's first word, after blanks: "group", "step", or anything. */
static int starts_with(const char *line, const char *end, const char *word)
{
	size_t n = strlen(word);

	while (line < end && (*line == ' ' || *line == '\t' || *line == '\r'))
		line++;
	return (size_t)(end - line) >= n && memcmp(line, word, n) == 0 &&
	       (line + n == end || strchr(" \t\r#", line[n]) != NULL);
}

/* First pass: how many groups and steps, to allocate once. */
static int count(struct replay_trace *rb, const char *text, size_t len, const char *path,
		 char *why, size_t whysize)
{
	size_t groups = 0, steps = 0;

	for (const char *line = text, *end; line < text + len; line = end + 1) {
		if ((end = memchr(line, '\n', (size_t)(text + len - line))) == NULL)
			end = text + len;
		groups += starts_with(line, end, "group");
		steps += starts_with(line, end, "step");
	}
	if (groups > REPLAY_MAX_GROUPS) {
		snprintf(why, whysize, "%s: more than %d groups", path, REPLAY_MAX_GROUPS);
		return -1;
	}
	if (steps > 0 && groups > 0 && steps > REPLAY_MAX_READINGS / groups) {
		snprintf(why, whysize, "%s: %zu groups x %zu steps is more than %d readings", path,
			 groups, steps, REPLAY_MAX_READINGS);
		return -1;
	}
	for (rb->nindex = 16; rb->nindex < 2 * groups; rb->nindex *= 2)
		;
	rb->group = calloc(groups ? groups : 1, sizeof *rb->group);
	rb->index = calloc(rb->nindex, sizeof *rb->index);
	rb->reading = calloc(groups > 0 && steps > 0 ? groups * steps : 1, sizeof *rb->reading);
	rb->cap_groups = groups;
	rb->cap_steps = steps;
	if (rb->group == NULL || rb->index == NULL || rb->reading == NULL) {
		snprintf(why, whysize, "out of memory");
		return -1;
	}
	return 0;
}

static int parse_text(struct replay_trace *rb, char *text, size_t len, const char *path,
		      char *why, size_t whysize)
{
	char *w[3 + CTR_GROUP_MAX + 1], detail[200], *line, *next;
	int lineno = 0;

	if (count(rb, text, len, path, why, whysize) < 0)
		return -1;
	for (line = text; line < text + len; line = next) {
		char *nl = memchr(line, '\n', (size_t)(text + len - line)), *hash, *save;
		int nw = 0, sts;

		next = nl ? nl + 1 : text + len;
		if (nl)
			*nl = '\0';
		lineno++;
		if (strlen(line) != (size_t)((nl ? nl : text + len) - line)) {
			snprintf(why, whysize, "%s:%d: a NUL byte in the line", path, lineno);
			return -1;
		}
		if ((hash = strchr(line, '#')) != NULL)
			*hash = '\0';
		for (char *t = strtok_r(line, " \t\r", &save); t && nw < (int)(sizeof w / sizeof w[0]);
		     t = strtok_r(NULL, " \t\r", &save))
			w[nw++] = t;
		if (nw == 0)
			continue;
		detail[0] = '\0';
		if (strcmp(w[0], "group") == 0) {
			sts = parse_group(rb, w, nw, detail, sizeof detail);
		} else if (strcmp(w[0], "step") == 0) {
			sts = nw == 1 ? add_step(rb) : -1;
		} else {
			sts = parse_reading(rb, w, nw, detail, sizeof detail);
		}
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

const struct ctr_reading *replay_trace_row(const struct replay_trace *t)
{
	return reading(t, t->step < t->nsteps ? t->step : t->nsteps - 1, 0);
}

static void trace_free(struct replay_trace *t)
{
	free(t->group);
	free(t->index);
	free(t->reading);
	free(t);
}

void replay_trace_release(struct replay_trace *t)
{
	if (t == NULL || --t->users > 0)
		return;
	for (struct replay_trace **at = &open_traces; *at; at = &(*at)->next)
		if (*at == t) {
			*at = t->next;
			break;
		}
	trace_free(t);
}

struct replay_trace *replay_trace_get(const char *path, char *why, size_t whysize)
{
	struct replay_trace *t;
	char reason[64], *text;
	struct stat st;
	size_t len;
	int sts, fd;

	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0 || fstat(fd, &st) < 0) {
		sts = -errno;
		snprintf(why, whysize, "%s: %s", path, rf_strerror(sts, REPLAY_MAX_BYTES, reason,
								  sizeof reason));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	for (t = open_traces; t; t = t->next)
		if (t->dev == st.st_dev && t->ino == st.st_ino && t->size == st.st_size &&
		    t->mtime.tv_sec == st.st_mtim.tv_sec && t->mtime.tv_nsec == st.st_mtim.tv_nsec) {
			close(fd);
			t->users++;
			return t;
		}
	if ((t = calloc(1, sizeof *t)) == NULL) {
		close(fd);
		snprintf(why, whysize, "out of memory");
		return NULL;
	}
	t->dev = st.st_dev;
	t->ino = st.st_ino;
	t->size = st.st_size;
	t->mtime = st.st_mtim;
	sts = rf_load(fd, path, REPLAY_MAX_BYTES, &text, &len);	/* closes fd */
	if (sts < 0) {
		snprintf(why, whysize, "%s: %s", path,
			 rf_strerror(sts, REPLAY_MAX_BYTES, reason, sizeof reason));
		trace_free(t);
		return NULL;
	}
	sts = parse_text(t, text, len, path, why, whysize);
	free(text);
	if (sts < 0) {
		trace_free(t);
		return NULL;
	}
	t->users = 1;
	t->next = open_traces;
	open_traces = t;
	return t;
}

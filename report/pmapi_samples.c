/*
 * samples.h's records from libpcp.  Each archive is a context of its own,
 * so that archives which overlap, or were given twice, are read once: the
 * archives are taken in order of their start, and a record no later than
 * the last one given is dropped.  Between an archive and the next, begun
 * after it ended, there is a break (pmlogger stopped and started again),
 * as at pmlogger's mark records.
 */
#include "logcheck.h"
#include "pmapi_samples.h"
#include "pcp_compat.h"
#include "time_window.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

struct archive {
	char *path;
	int ctx;
	double start, end;
	pmID pmids[NFIGURES];
	pmDesc descs[NFIGURES];
};

/* Instance names of one context, by (indom, inst), hashed: libpcp's
 * lookups allocate, and an archive's names do not change. */
struct name_cache {
	struct name_entry { pmInDom indom; int inst; char *name; } *e;
	int n, cap;		/* e: open addressing, cap a power of two */
	unsigned int gen;	/* one more at each clearing */
};

struct pmapi_reader {
	struct sample_reader r;
	enum sample_by by;
	struct archive *archives;
	int narchives, current;
	bool positioned;
	double last;			/* the last record's time given */
	bool live;
	int ctx;			/* live: the host's context */
	pmID live_pmids[NFIGURES];
	pmDesc live_descs[NFIGURES];
	double interval;
	int samples, fetched;
	struct name_cache names;
	struct observation *obs;
	int nobs, obscap;
	char why[512];
};

static void names_clear(struct name_cache *c)
{
	c->gen++;
	for (int i = 0; i < c->cap; i++)
		free(c->e[i].name);
	free(c->e);
	c->e = NULL;
	c->n = c->cap = 0;
}

static unsigned int name_slot(const struct name_cache *c, pmInDom indom, int inst)
{
	return ((unsigned int)indom * 2654435761u ^ (unsigned int)inst * 40503u) & (unsigned int)(c->cap - 1);
}

static int names_grow(struct name_cache *c)
{
	struct name_cache bigger = { calloc((size_t)(c->cap ? 2 * c->cap : 1024), sizeof *c->e), 0,
				     c->cap ? 2 * c->cap : 1024, c->gen };

	if (bigger.e == NULL)
		return -1;
	for (int i = 0; i < c->cap; i++) {
		unsigned int k;

		if (c->e[i].name == NULL)
			continue;
		for (k = name_slot(&bigger, c->e[i].indom, c->e[i].inst); bigger.e[k].name;
		     k = (k + 1) & (unsigned int)(bigger.cap - 1))
			;
		bigger.e[k] = c->e[i];
		bigger.n++;
	}
	free(c->e);
	*c = bigger;
	return 0;
}

static const char *instance_name(struct pmapi_reader *p, pmInDom indom, int inst)
{
	struct name_cache *c = &p->names;
	char *name = NULL;
	unsigned int k;
	int sts;

	if (2 * (c->n + 1) > c->cap && names_grow(c) < 0)
		return NULL;
	for (k = name_slot(c, indom, inst); c->e[k].name; k = (k + 1) & (unsigned int)(c->cap - 1))
		if (c->e[k].indom == indom && c->e[k].inst == inst)
			return c->e[k].name;
	sts = p->live ? pmNameInDom(indom, inst, &name) : pmNameInDomArchive(indom, inst, &name);
	if (sts < 0) {
		char buf[32];

		snprintf(buf, sizeof buf, "#%d", inst);
		name = strdup(buf);
	}
	if (name == NULL)
		return NULL;
	c->e[k] = (struct name_entry){ indom, inst, name };
	c->n++;
	return name;
}

static int add_observation(struct pmapi_reader *p, enum figure f, const char *inst, double v)
{
	if (p->nobs == p->obscap) {
		int cap = p->obscap ? 2 * p->obscap : 256;
		struct observation *o = realloc(p->obs, (size_t)cap * sizeof *o);

		if (o == NULL)
			return -ENOMEM;
		p->obs = o;
		p->obscap = cap;
	}
	p->obs[p->nobs++] = (struct observation){ f, inst, v };
	return 0;
}

/* The figures' metrics in the current context: PM_ID_NULL where absent. */
static void look_up(enum sample_by by, pmID *pmids, pmDesc *descs)
{
	for (int f = 0; f < NFIGURES; f++) {
		const char *name = figure_metric((enum figure)f, by);

		pmids[f] = PM_ID_NULL;
		if (pmLookupName(1, &name, &pmids[f]) < 0 || pmids[f] == PM_ID_NULL ||
		    pmLookupDesc(pmids[f], &descs[f]) < 0)
			pmids[f] = PM_ID_NULL;
	}
}

/* A result's values as observations. */
static int fill(struct pmapi_reader *p, const pcp_result *res, const pmID *pmids, const pmDesc *descs,
		struct record *rec)
{
	p->nobs = 0;
	for (int i = 0; i < res->numpmid; i++) {
		const pmValueSet *vs = res->vset[i];
		int f;

		for (f = 0; f < NFIGURES; f++)
			if (pmids[f] == vs->pmid && pmids[f] != PM_ID_NULL)
				break;
		if (f == NFIGURES)
			continue;
		for (int j = 0; j < vs->numval; j++) {
			pmAtomValue atom;
			const char *inst = NULL;

			if (pmExtractValue(vs->valfmt, &vs->vlist[j], descs[f].type, &atom, PM_TYPE_DOUBLE) < 0)
				continue;
			if (descs[f].indom != PM_INDOM_NULL &&
			    (inst = instance_name(p, descs[f].indom, vs->vlist[j].inst)) == NULL)
				return -ENOMEM;
			if (add_observation(p, (enum figure)f, inst, atom.d) < 0)
				return -ENOMEM;
		}
	}
	rec->nobs = p->nobs;
	rec->obs = p->obs;
	rec->names_gen = p->names.gen;
	return 0;
}

/* An archive's last name, for a gap's reason (the window and the error
 * messages name the whole path). */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

static int next_archived(struct sample_reader *r, struct record *rec)
{
	struct pmapi_reader *p = (struct pmapi_reader *)r;
	bool brk = false;

	rec->mark = rec->lacking = false;
	rec->why = NULL;
	rec->digits = 0;
	while (p->current < p->narchives) {
		struct archive *a = &p->archives[p->current];
		pcp_result *res;
		struct timespec from = pcp_timespec(r->start), none = { 0, 0 };
		double t;
		int sts;

		pmUseContext(a->ctx);
		if (!p->positioned) {
			if ((sts = pcp_set_mode(PM_MODE_FORW, &from, &none)) < 0) {
				snprintf(r->error, sizeof r->error, "%s: %s", a->path, pmErrStr(sts));
				return -1;
			}
			p->positioned = true;
		}
		/* record by record, as logged: a fetch of the figures would pass
		 * over pmlogger's marks */
		sts = pcp_fetch_archive(&res);
		if (sts == PM_ERR_EOL) {
			pmDestroyContext(a->ctx);
			a->ctx = -1;
			names_clear(&p->names);
			p->current++;
			p->positioned = false;
			/* pmlogger stopped and started again; an archive that
			 * began before this one ended is another logger's, of
			 * the same counters: no break */
			if (p->current < p->narchives && p->archives[p->current].start >= a->end) {
				brk = true;
				snprintf(p->why, sizeof p->why, "pmlogger stopped (%s ends) and started again (%s)",
					 base_name(a->path), base_name(p->archives[p->current].path));
			}
			continue;
		}
		if (sts < 0) {
			char says[512];

			logcheck_says(a->path, says, sizeof says);
			snprintf(r->error, sizeof r->error, "%s: %s; pmlogcheck says: %s", a->path, pmErrStr(sts),
				 says[0] ? says : "nothing");
			return -1;
		}
		t = pcp_seconds(&res->timestamp);
		if (t > r->end) {
			pcp_free_result(res);
			pmDestroyContext(a->ctx);
			a->ctx = -1;
			names_clear(&p->names);
			p->current++;
			p->positioned = false;
			continue;
		}
		if (res->numpmid == 0) {	/* pmlogger's <mark>: it stopped there */
			pcp_free_result(res);
			brk = true;
			snprintf(p->why, sizeof p->why, "pmlogger stopped (a mark in %s)", base_name(a->path));
			continue;
		}
		if (t <= p->last) {	/* an archive overlapping what was read */
			pcp_free_result(res);
			continue;
		}
		sts = fill(p, res, a->pmids, a->descs, rec);
		pcp_free_result(res);
		if (sts < 0) {
			snprintf(r->error, sizeof r->error, "out of memory");
			return -1;
		}
		if (p->nobs == 0)
			continue;	/* a record of none of the figures */
		rec->time = t;
		rec->mark = brk;
		rec->why = brk ? p->why : NULL;
		p->last = t;
		return 1;
	}
	return 0;
}

static int next_live(struct sample_reader *r, struct record *rec)
{
	struct pmapi_reader *p = (struct pmapi_reader *)r;
	pcp_result *res;
	int sts;

	rec->mark = rec->lacking = false;
	rec->why = NULL;
	rec->digits = 0;
	if (p->fetched >= p->samples)
		return 0;
	if (p->fetched > 0) {
		struct timespec nap = pcp_timespec(p->interval);

		while (nanosleep(&nap, &nap) != 0 && errno == EINTR)
			;
	}
	pmUseContext(p->ctx);
	if ((sts = pcp_fetch(NFIGURES, p->live_pmids, &res)) < 0) {
		snprintf(r->error, sizeof r->error, "%s: %s", r->host, pmErrStr(sts));
		return -1;
	}
	p->fetched++;
	rec->time = pcp_seconds(&res->timestamp);
	sts = fill(p, res, p->live_pmids, p->live_descs, rec);
	pcp_free_result(res);
	if (sts < 0) {
		snprintf(r->error, sizeof r->error, "out of memory");
		return -1;
	}
	r->end = rec->time;
	return 1;
}

static void close_reader(struct sample_reader *r)
{
	struct pmapi_reader *p = (struct pmapi_reader *)r;

	if (p == NULL)
		return;
	for (int i = 0; i < p->narchives; i++) {
		if (p->archives[i].ctx >= 0)
			pmDestroyContext(p->archives[i].ctx);
		free(p->archives[i].path);
	}
	if (p->live && p->ctx >= 0)
		pmDestroyContext(p->ctx);
	names_clear(&p->names);
	free(p->archives);
	free(p->obs);
	free(p);
}

static struct pmapi_reader *new_reader(enum sample_by by)
{
	struct pmapi_reader *p = calloc(1, sizeof *p);

	if (p == NULL)
		return NULL;
	p->by = by;
	p->ctx = -1;
	p->last = -1;
	p->r.close = close_reader;
	return p;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && strcmp(s + n - m, suffix) == 0;
}

static int add_archive(struct pmapi_reader *p, const char *path)
{
	struct archive *a = realloc(p->archives, (size_t)(p->narchives + 1) * sizeof *a);

	if (a == NULL)
		return -ENOMEM;
	p->archives = a;
	a = &a[p->narchives];
	memset(a, 0, sizeof *a);
	a->ctx = -1;
	if ((a->path = strdup(path)) == NULL)
		return -ENOMEM;
	p->narchives++;
	return 0;
}

static int by_name(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* A pmlogger directory: each archive in it, by its metadata file's name. */
static int add_directory(struct pmapi_reader *p, const char *dir, char *err, size_t errlen)
{
	static const char *const metas[] = { ".meta", ".meta.xz", ".meta.gz", ".meta.bz2", ".meta.lzma",
					     ".meta.zst" };
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	int n = 0, sts = 0;

	if (d == NULL) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		for (size_t k = 0; k < sizeof metas / sizeof metas[0]; k++) {
			char **grown;
			size_t len;

			if (!has_suffix(e->d_name, metas[k]))
				continue;
			len = strlen(dir) + 1 + strlen(e->d_name) - strlen(metas[k]) + 1;
			if ((grown = realloc(names, (size_t)(n + 1) * sizeof *names)) == NULL ||
			    (grown[n] = malloc(len)) == NULL) {
				names = grown ? grown : names;
				sts = -ENOMEM;
				break;
			}
			names = grown;
			snprintf(names[n], len, "%s/%.*s", dir, (int)(strlen(e->d_name) - strlen(metas[k])),
				 e->d_name);
			n++;
			break;
		}
		if (sts < 0)
			break;
	}
	closedir(d);
	if (sts == 0 && n == 0) {
		snprintf(err, errlen, "%s: no archive in the directory", dir);
		sts = -1;
	}
	if (names)
		qsort(names, (size_t)n, sizeof *names, by_name);
	for (int i = 0; i < n; i++) {
		if (sts == 0 && add_archive(p, names[i]) < 0)
			sts = -ENOMEM;
		free(names[i]);
	}
	free(names);
	if (sts == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	return sts;
}

static int by_start(const void *x, const void *y)
{
	const struct archive *a = x, *b = y;

	return (a->start > b->start) - (a->start < b->start);
}

/* Opens each archive: its host, its times, the figures' metrics. */
static int open_archive(struct archive *a, enum sample_by by, char *host, size_t hostlen, const char **first,
			char *err, size_t errlen)
{
	pcp_label label;
	struct timespec end;
	int sts;

	if ((sts = a->ctx = pmNewContext(PM_CONTEXT_ARCHIVE, a->path)) < 0 ||
	    (sts = pcp_archive_label(&label)) < 0 || (sts = pcp_archive_end(&end)) < 0) {
		char says[512];

		logcheck_says(a->path, says, sizeof says);
		snprintf(err, errlen, "%s: cannot read the archive: %s; pmlogcheck says: %s", a->path,
			 pmErrStr(sts), says[0] ? says : "nothing");
		return -1;
	}
	a->start = pcp_seconds(&label.start);
	a->end = pcp_seconds(&end);
	if (*first == NULL) {
		snprintf(host, hostlen, "%s", label.hostname);
		*first = a->path;
	} else if (strcmp(host, label.hostname) != 0) {
		snprintf(err, errlen, "archives of more than one host: %s is of %s, %s of %s; give one host's "
			 "archives at a time", *first, host, a->path, label.hostname);
		return -1;
	}
	look_up(by, a->pmids, a->descs);
	if (a->pmids[FIG_CAPACITY] == PM_ID_NULL || a->pmids[FIG_THROUGHPUT] == PM_ID_NULL) {
		snprintf(err, errlen, "%s: no smtcpu metrics in the archive (%s is not there): log smtcpu's "
			 "\"smt\" group (pmlogconf smtcpu/smt)", a->path,
			 figure_metric(a->pmids[FIG_CAPACITY] == PM_ID_NULL ? FIG_CAPACITY : FIG_THROUGHPUT, by));
		return -1;
	}
	return 0;
}

struct sample_reader *pmapi_open_archives(char *const *paths, int npaths, const struct window_args *w,
					  enum sample_by by, bool hostzone, char *err, size_t errlen)
{
	struct pmapi_reader *p = new_reader(by);
	const char *first = NULL;
	double lo = 0, hi = 0;

	if (p == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	p->r.next = next_archived;
	for (int i = 0; i < npaths; i++) {
		char *list = strdup(paths[i]), *save = NULL;

		if (list == NULL) {
			snprintf(err, errlen, "out of memory");
			goto fail;
		}
		for (char *one = strtok_r(list, ",", &save); one; one = strtok_r(NULL, ",", &save)) {
			struct stat st;
			int sts = stat(one, &st) == 0 && S_ISDIR(st.st_mode) ? add_directory(p, one, err, errlen)
									   : add_archive(p, one);

			if (sts < 0) {
				if (sts == -ENOMEM)
					snprintf(err, errlen, "out of memory");
				free(list);
				goto fail;
			}
		}
		free(list);
	}
	if (p->narchives == 0) {
		snprintf(err, errlen, "no archive given");
		goto fail;
	}
	for (int i = 0; i < p->narchives; i++) {
		if (open_archive(&p->archives[i], by, p->r.host, sizeof p->r.host, &first, err, errlen) < 0)
			goto fail;
		if (i == 0 || p->archives[i].start < lo)
			lo = p->archives[i].start;
		if (i == 0 || p->archives[i].end > hi)
			hi = p->archives[i].end;
	}
	qsort(p->archives, (size_t)p->narchives, sizeof *p->archives, by_start);
	pmUseContext(p->archives[0].ctx);
	if (hostzone)
		pmNewContextZone();
	if (time_window(w, lo, hi, "the archives run", &p->r.start, &p->r.end, err, errlen) < 0)
		goto fail;
	return &p->r;
fail:
	close_reader(&p->r);
	return NULL;
}

struct sample_reader *pmapi_open_host(const char *host, double interval, int samples, enum sample_by by,
				      bool hostzone, char *err, size_t errlen)
{
	struct pmapi_reader *p = new_reader(by);

	if (p == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	p->live = true;
	p->r.next = next_live;
	p->interval = interval;
	p->samples = samples;
	if ((p->ctx = pmNewContext(PM_CONTEXT_HOST, host)) < 0) {
		snprintf(err, errlen, "%s: cannot reach pmcd: %s", host, pmErrStr(p->ctx));
		goto fail;
	}
	if (hostzone)
		pmNewContextZone();
	pmGetContextHostName_r(p->ctx, p->r.host, sizeof p->r.host);
	look_up(by, p->live_pmids, p->live_descs);
	if (p->live_pmids[FIG_CAPACITY] == PM_ID_NULL || p->live_pmids[FIG_THROUGHPUT] == PM_ID_NULL) {
		snprintf(err, errlen, "%s: no smtcpu metrics (is the smtcpu PMDA installed?)", host);
		goto fail;
	}
	p->r.start = (double)time(NULL);
	p->r.end = p->r.start;
	return &p->r;
fail:
	close_reader(&p->r);
	return NULL;
}
